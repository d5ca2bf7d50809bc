//! Signing in to the operator's view and out of it: the cabinet's pages at the operators' door.

use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::operator_view::{OperatorAccess, OperatorActor, OperatorDoor};
use vp_ports::TrustedProxies;

use super::Operator;
use crate::cabinet::failed;
use crate::cabinet::session::{self, AnonymousForm, Cookies, OPERATOR, SignedForm};
use crate::cabinet::sign_in::At;

fn door(access: &OperatorAccess) -> At<'_, OperatorDoor> {
    At { pages: &OPERATOR, entrance: access, cookies: Cookies { secure: access.secure_cookies() } }
}

/// The sign-in form; an operator signed in already goes on to the view.
pub async fn form(req: HttpRequest, access: Data<OperatorAccess>, signed_in: Option<Operator>) -> HttpResponse {
    if signed_in.is_some() {
        return session::see_other(OPERATOR.base);
    }
    door(&access).form(&req)
}

pub async fn submit(
    req: HttpRequest,
    access: Data<OperatorAccess>,
    proxies: Data<TrustedProxies>,
    AnonymousForm(fields): AnonymousForm,
) -> HttpResponse {
    door(&access).submit(&req, &proxies, &fields).await
}

pub async fn sign_out(req: HttpRequest, access: Data<OperatorAccess>, form: SignedForm<OperatorActor>) -> HttpResponse {
    match access.sign_out(&form.actor).await {
        Ok(()) => OPERATOR.to_sign_in(door(&access).cookies),
        Err(e) => failed(&req, &e),
    }
}

pub async fn welcome(req: HttpRequest, access: Data<OperatorAccess>, token: Path<String>) -> HttpResponse {
    door(&access).welcome(&req, &token).await
}

pub async fn set_password(
    req: HttpRequest,
    access: Data<OperatorAccess>,
    token: Path<String>,
    AnonymousForm(fields): AnonymousForm,
) -> HttpResponse {
    door(&access).set_password(&req, &token, &fields).await
}
