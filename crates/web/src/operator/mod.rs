//! The operator's view under `/operator`: the platform's operators (invited with `vp-api
//! operator invite`) sign in through their own door and see every account's sales with the
//! accounts ranked, what the platform owes partners, and their own audit. Server-rendered in
//! Russian and English like the cabinet; every page a use case serves is audited there.

mod audit;
mod owed;
mod sales;
mod sign_in;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use vp_app::Lang;
use vp_app::operator_view::OperatorActor;
use vp_i18n::Texts;

use crate::cabinet::session::{self, Cookies, OPERATOR, SignedIn};
use crate::pages::kit::Page;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/operator")
            .route("", web::get().to(sales::show))
            .route("/", web::get().to(sales::show))
            .route("/sign-in", web::get().to(sign_in::form))
            .route("/sign-in", web::post().to(sign_in::submit))
            .route("/sign-out", web::post().to(sign_in::sign_out))
            .route("/welcome/{token}", web::get().to(sign_in::welcome))
            .route("/welcome/{token}", web::post().to(sign_in::set_password))
            .route("/owed", web::get().to(owed::show))
            .route("/audit", web::get().to(audit::show)),
    );
}

/// An operator signed in, as the view's handlers take them.
type Operator = SignedIn<OperatorActor>;

/// The view's sections, in the order of the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Sales,
    Owed,
    Audit,
}

impl Section {
    const ALL: [Section; 3] = [Section::Sales, Section::Owed, Section::Audit];

    fn path(self) -> &'static str {
        match self {
            Section::Sales => "/operator",
            Section::Owed => "/operator/owed",
            Section::Audit => "/operator/audit",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Section::Sales => "operator-section-sales",
            Section::Owed => "operator-section-owed",
            Section::Audit => "operator-section-audit",
        }
    }
}

/// A page of the view: the platform's name, the menu with the current section marked, the
/// operator's email and the sign-out button, never cached.
struct Shell<'a> {
    req: &'a HttpRequest,
    actor: &'a OperatorActor,
    lang: Lang,
    tx: Texts,
    section: Section,
}

impl<'a> Shell<'a> {
    fn new(req: &'a HttpRequest, actor: &'a OperatorActor, section: Section) -> Shell<'a> {
        let lang = session::lang(req);
        Shell { req, actor, lang, tx: Texts(lang), section }
    }

    fn menu(&self) -> Markup {
        let tx = self.tx;
        html! {
            nav.sections aria-label=(tx.get("operator-menu")) {
                @for s in Section::ALL {
                    a href=(s.path()) aria-current=[(s == self.section).then_some("page")] { (tx.get(s.key())) }
                }
                span.muted { (self.actor.operator.email) }
                form.inline method="post" action="/operator/sign-out" {
                    input type="hidden" name="csrf" value=(self.actor.csrf_token);
                    button type="submit" { (tx.get("cabinet-sign-out")) }
                }
            }
        }
    }

    fn render(&self, title: &str, body: Markup) -> HttpResponse {
        let mut res = Page::new(self.req, self.lang, title).private_with_nav(self.menu()).render(StatusCode::OK, body);
        if let Some(cookie) = OPERATOR.remember_lang_cookie(Cookies::of(self.req), self.req) {
            session::add_cookie(&mut res, cookie);
        }
        res
    }
}

// The operator's view shows moments in UTC, named: it spans accounts of every zone.
use crate::cabinet::sign_in::utc;
