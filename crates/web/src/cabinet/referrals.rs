//! The referral program on the Promotions page: the days an invited customer's first payment
//! gives the inviter (0: off), the figures and the top inviters.

use actix_web::HttpRequest;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use maud::{Markup, html};
use vp_app::referrals::ReferralProgram;
use vp_domain::referral::{MAX_REFERRAL_DAYS, ReferralDays};
use vp_i18n::Texts;

use super::{Shell, SignedForm, failed, promotions, said_first, session};
use crate::pages::kit::{self, Column};

/// Saves the days; a value out of range is said in the section, which keeps what it had.
pub async fn save(req: HttpRequest, sources: promotions::Sources, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let Ok(days) = ReferralDays::parse(fields.get("days")) else {
        let tx = Texts(session::lang(&req));
        let refused = tx.with("cabinet-referrals-refused", &[("max", MAX_REFERRAL_DAYS.into())]);
        let said = promotions::Said { top: None, referrals: Some(("error", refused)) };
        return promotions::render_with(&req, &sources, &actor, StatusCode::UNPROCESSABLE_ENTITY, said).await;
    };
    let (_, referrals, _) = &sources;
    match referrals.set_days((&actor).into(), days).await {
        Ok(_) => session::see_other("/cabinet/promotions?referrals=saved#referrals"),
        Err(e) => failed(&req, &e),
    }
}

/// The section: what the program does, its form, its figures and its top inviters.
pub(super) fn section(shell: &Shell<'_>, program: &ReferralProgram, said: &Option<(&'static str, String)>) -> Markup {
    let tx = shell.tx;
    let totals = &program.totals;
    let refused = said.as_ref().is_some_and(|(class, _)| *class == "error");
    html! {
        section #referrals {
            h2 { (tx.get("cabinet-referrals")) }
            (said_first(said))
            p.muted { (tx.get("cabinet-referrals-intro")) }
            form method="post" action="/cabinet/promotions/referrals" {
                (shell.csrf_field())
                label for="days" { (tx.get("cabinet-referrals-days")) }
                // A refused number brings the field into view (the page reloads at its top).
                input #days name="days" type="number" min="0" max=(MAX_REFERRAL_DAYS) inputmode="numeric" required
                    value=(program.days.days()) aria-describedby="days_help" autofocus[refused];
                p #days_help .muted { (tx.get("cabinet-referrals-days-help")) }
                p { button type="submit" { (tx.get("cabinet-referrals-save")) } }
            }
            p #referral-figures {
                (tx.with("cabinet-referrals-figures", &[
                    ("count", totals.invited.into()),
                    ("used", totals.rewarded.into()),
                    ("days", totals.days_given.into()),
                ]))
            }
            @if !program.top_inviters.is_empty() {
                h3 { (tx.get("cabinet-referrals-top")) }
                (kit::table(
                    &[
                        Column::text(tx.get("cabinet-referrals-inviter")),
                        Column::amount(tx.get("cabinet-referrals-invited")),
                        Column::amount(tx.get("cabinet-referrals-paid")),
                        Column::amount(tx.get("cabinet-referrals-days-given")),
                    ],
                    program.top_inviters.iter().map(|i| {
                        let id = i.client_id.as_str();
                        vec![
                            html! { a href=(format!("/cabinet/clients/{id}")) { code { (id) } } },
                            html! { (i.invited) },
                            html! { (i.rewarded) },
                            html! { (i.days_given) },
                        ]
                    }),
                ))
            }
        }
    }
}
