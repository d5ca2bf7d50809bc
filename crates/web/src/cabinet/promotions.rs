//! The Promotions page: the account's promo codes with what each gives, its limits and its uses
//! (held by payable invoices, spent by paid ones, the discount given), a form for a new code,
//! and a button that turns one off; below them the referral program (`referrals`).

use actix_web::http::StatusCode;
use actix_web::web::{Data, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::actor::Actor;
use vp_app::catalog::Catalog;
use vp_app::promotions::{NewPromo, PromoSummary, Promotions};
use vp_app::referrals::Referrals;
use vp_app::views::plan_term;
use vp_app::{AppError, Declined, FieldErrors};
use vp_domain::Money;
use vp_domain::TimeZone;
use vp_domain::promo::{Benefit, PromoCode};
use vp_domain::time_zone::parse_day;
use vp_i18n::Texts;

use super::session;
use super::{Fields, Section, Shell, SignedForm, SignedIn, failed, said_first, when};

/// `?created=CODE`, `?disabled=CODE` or `?referrals=saved` after an action.
#[derive(Deserialize)]
pub struct Shown {
    created: Option<String>,
    disabled: Option<String>,
    referrals: Option<String>,
}

/// The services the page reads: the codes, the plans the form offers, the referral program.
pub(super) type Sources = (Data<Promotions>, Data<Referrals>, Data<Catalog>);

pub async fn show(req: HttpRequest, sources: Sources, SignedIn(actor): SignedIn, shown: Query<Shown>) -> HttpResponse {
    let tx = Texts(session::lang(&req));
    let said = |key: &str, code: &str| Some(("ok", tx.with(key, &[("code", code.into())])));
    let top = match (&shown.created, &shown.disabled) {
        (Some(code), _) => said("cabinet-promo-created", code),
        (_, Some(code)) => said("cabinet-promo-disabled", code),
        _ => None,
    };
    let referrals = shown.referrals.as_ref().map(|_| ("ok", tx.get("cabinet-referrals-saved")));
    let said = Said { top, referrals };
    render(&req, &sources, &actor, StatusCode::OK, said, &PromoForm::default()).await
}

/// The form as sent: raw text, kept to fill the form again, and read into a new code here.
#[derive(Debug, Clone, Default)]
struct PromoForm {
    code: String,
    /// `percent_off`, `amount_off` or `extra_days`.
    kind: String,
    value: String,
    /// Empty: no limit.
    max_uses: String,
    /// Empty: 1.
    per_customer: String,
    first_purchase_only: bool,
    /// The plan ids ticked; none: every plan.
    plans: Vec<String>,
    /// `YYYY-MM-DD` or empty.
    expires: String,
}

/// A whole number of at least 1, or `None` for an empty field.
fn count(text: &str) -> Result<Option<u32>, &'static str> {
    match text.trim() {
        "" => Ok(None),
        n => n.parse::<u32>().ok().filter(|n| *n >= 1).map(Some).ok_or("a whole number of at least 1"),
    }
}

impl PromoForm {
    fn of(fields: &Fields) -> PromoForm {
        PromoForm {
            code: fields.get("code").to_owned(),
            kind: fields.get("kind").to_owned(),
            value: fields.get("value").to_owned(),
            max_uses: fields.get("max_uses").to_owned(),
            per_customer: fields.get("per_customer").to_owned(),
            first_purchase_only: fields.get("first_purchase_only") == "on",
            plans: fields.all("plans"),
            expires: fields.get("expires").to_owned(),
        }
    }

    /// The code the form asks for; every bad field is named.
    fn read(&self) -> Result<NewPromo, FieldErrors> {
        let mut errors = FieldErrors::new();
        let mut bad = |field: &str, why: String| {
            errors.insert(field.to_owned(), why);
        };
        let value = self.value.trim();
        let benefit = match self.kind.as_str() {
            "percent_off" => value.parse::<u32>().map_err(|_| ()).and_then(|p| Benefit::percent_off(p).map_err(|_| ())),
            "amount_off" => {
                Money::parse_positive(value).map_err(|_| ()).and_then(|a| Benefit::amount_off(a).map_err(|_| ()))
            }
            "extra_days" => value.parse::<u32>().map_err(|_| ()).and_then(|d| Benefit::extra_days(d).map_err(|_| ())),
            _ => Err(()),
        };
        if benefit.is_err() {
            bad("value", "the discount or the days".into());
        }
        let max_uses = count(&self.max_uses).map_err(|why| bad("max_uses", why.into())).ok().flatten();
        let per_customer = count(&self.per_customer).map_err(|why| bad("per_customer", why.into())).ok().flatten();
        let plans: Result<Vec<i32>, _> = self.plans.iter().map(|p| p.trim().parse::<i32>()).collect();
        let plans = plans.map_err(|_| bad("plans", "plans on sale".into())).ok();
        let last_day = match self.expires.trim() {
            "" => None,
            day => parse_day(day).or_else(|| {
                bad("expires", "a date".into());
                None
            }),
        };
        match benefit {
            Ok(benefit) if errors.is_empty() => Ok(NewPromo {
                code: self.code.clone(),
                benefit,
                max_uses,
                per_customer: per_customer.unwrap_or(1),
                first_purchase_only: self.first_purchase_only,
                plans: plans.filter(|p| !p.is_empty()),
                last_day,
            }),
            _ => Err(errors),
        }
    }
}

pub async fn create(req: HttpRequest, sources: Sources, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let tx = Texts(session::lang(&req));
    let sent = PromoForm::of(&fields);
    let created = match sent.read() {
        Ok(new) => {
            let (promotions, ..) = &sources;
            promotions.create((&actor).into(), new).await
        }
        Err(fields) => Err(AppError::Validation(fields)),
    };
    let refused = match created {
        Ok(_) => {
            let code = sent.code.trim().to_ascii_uppercase();
            return session::see_other(&format!("/cabinet/promotions?created={}", urlencoding(&code)));
        }
        Err(AppError::Validation(errors)) => {
            let names: Vec<String> =
                errors.keys().map(|f| tx.get(&format!("cabinet-promo-field-{}", f.replace('_', "-")))).collect();
            tx.with("cabinet-promo-refused-fields", &[("fields", names.join(", ").as_str().into())])
        }
        Err(AppError::Declined(d)) => declined(tx, &d),
        Err(e) => return failed(&req, &e),
    };
    let said = Said { top: Some(("error", refused)), referrals: None };
    render(&req, &sources, &actor, StatusCode::UNPROCESSABLE_ENTITY, said, &sent).await
}

/// Codes are `A-Z 0-9 -`: nothing to escape but what a forged value may hold.
fn urlencoding(code: &str) -> String {
    code.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect()
}

fn declined(tx: Texts, d: &Declined) -> String {
    match d {
        Declined::PromoCodeMalformed => tx.get("cabinet-promo-refused-malformed"),
        Declined::PromoCodeTaken(code) => tx.with("cabinet-promo-refused-taken", &[("code", code.as_str().into())]),
        Declined::PromoPlanUnknown(plan) => tx.with("cabinet-promo-refused-plan", &[("plan", i64::from(*plan).into())]),
        Declined::PromoBelowPlatformPrice { plan_id, by } => {
            tx.with("cabinet-promo-refused-below", &[("plan", i64::from(*plan_id).into()), ("amount", (*by).into())])
        }
        Declined::PromoExpiresInThePast => tx.get("cabinet-promo-refused-past"),
        Declined::PromoUsesZero => tx.get("cabinet-promo-refused-zero"),
        other => other.to_string(),
    }
}

pub async fn disable(req: HttpRequest, promotions: Data<Promotions>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let code = fields.get("code").to_owned();
    // A text that cannot be a code names none of the account's: as if already gone.
    let disabled = match PromoCode::parse(&code) {
        Ok(known) => promotions.disable((&actor).into(), &known).await,
        Err(_) => Ok(()),
    };
    match disabled {
        Ok(()) | Err(AppError::NotFound(_)) => {
            session::see_other(&format!("/cabinet/promotions?disabled={}", urlencoding(&code.to_ascii_uppercase())))
        }
        Err(e) => failed(&req, &e),
    }
}

/// What a code gives, in the page's language.
fn benefit(tx: Texts, b: Benefit) -> String {
    match b {
        Benefit::PercentOff(percent) => tx.with("cabinet-promo-percent-off", &[("percent", percent.into())]),
        Benefit::AmountOff(amount) => tx.with("cabinet-promo-amount-off", &[("amount", amount.into())]),
        Benefit::ExtraDays(days) => tx.with("cabinet-promo-extra-days", &[("days", days.into())]),
    }
}

/// Its limits, in one line.
fn limits(tx: Texts, zone: &TimeZone, s: &PromoSummary) -> String {
    let t = &s.promo.terms;
    let mut parts = vec![match t.max_uses {
        Some(max) => tx.with("cabinet-promo-max-uses", &[("max", max.into())]),
        None => tx.get("cabinet-promo-no-max"),
    }];
    parts.push(tx.with("cabinet-promo-per-customer", &[("count", t.per_customer.into())]));
    if t.first_purchase_only {
        parts.push(tx.get("cabinet-promo-first-only"));
    }
    if let Some(plans) = &t.plans {
        let list = plans.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
        parts.push(tx.with("cabinet-promo-plans-only", &[("plans", list.as_str().into())]));
    }
    if let Some(end) = t.expires_at {
        parts.push(tx.with("cabinet-promo-until", &[("at", when(zone, end).as_str().into())]));
    }
    parts.join("; ")
}

/// What an action's outcome says: above the page, or in the referral program's section.
pub(super) struct Said {
    pub top: Option<(&'static str, String)>,
    pub referrals: Option<(&'static str, String)>,
}

/// The page with an empty form for a new code.
pub(super) async fn render_with(
    req: &HttpRequest,
    sources: &Sources,
    actor: &Actor,
    status: StatusCode,
    said: Said,
) -> HttpResponse {
    render(req, sources, actor, status, said, &PromoForm::default()).await
}

async fn render(
    req: &HttpRequest,
    (promotions, referrals, catalog): &Sources,
    actor: &Actor,
    status: StatusCode,
    said: Said,
    sent: &PromoForm,
) -> HttpResponse {
    let (codes, plans, program) = match (
        promotions.list(actor.into()).await,
        catalog.price_list(&actor.account).await,
        referrals.program(actor.into()).await,
    ) {
        (Ok(codes), Ok(plans), Ok(program)) => (codes, plans, program),
        (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return failed(req, &e),
    };
    let shell = Shell::new(req, actor, Section::Promotions);
    let tx = shell.tx;
    let title = tx.get("cabinet-section-promotions");
    let body = html! {
        h1 { (title) }
        (said_first(&said.top))
        p.muted { (tx.get("cabinet-promo-intro")) }
        @if codes.is_empty() {
            p { (tx.get("cabinet-promo-none")) }
        }
        @for s in &codes {
            (code_card(&shell, tx, s))
        }
        h2 { (tx.get("cabinet-promo-new")) }
        (new_form(&shell, tx, sent, &plans))
        (super::referrals::section(&shell, &program, &said.referrals))
    };
    shell.render(status, &title, body)
}

fn code_card(shell: &Shell<'_>, tx: Texts, s: &PromoSummary) -> Markup {
    let p = &s.promo;
    html! {
        section.card {
            h3 { code { (p.code) } " · " (benefit(tx, p.benefit)) }
            p.muted { (limits(tx, shell.zone(), s)) }
            p {
                (tx.with("cabinet-promo-uses", &[
                    ("used", s.usage.spent.into()),
                    ("count", s.usage.held.into()),
                    ("amount", s.usage.discount_given.into()),
                ]))
            }
            @if p.terms.disabled {
                p.muted { (tx.get("cabinet-promo-is-disabled")) }
            } @else {
                form method="post" action="/cabinet/promotions/disable" {
                    (shell.csrf_field())
                    input type="hidden" name="code" value=(p.code);
                    button type="submit" { (tx.with("cabinet-promo-disable", &[("code", p.code.as_str().into())])) }
                }
            }
        }
    }
}

fn new_form(shell: &Shell<'_>, tx: Texts, sent: &PromoForm, plans: &vp_app::views::PlansView) -> Markup {
    let kind = if sent.kind.is_empty() { "percent_off" } else { sent.kind.as_str() };
    html! {
        form method="post" action="/cabinet/promotions" {
            (shell.csrf_field())
            label for="code" { (tx.get("cabinet-promo-field-code")) }
            input #code name="code" type="text" required minlength="4" maxlength="32" pattern="[A-Za-z0-9-]{4,32}"
                autocapitalize="characters" spellcheck="false" value=(sent.code) aria-describedby="code_help";
            p #code_help .muted { (tx.get("cabinet-promo-code-help")) }
            fieldset.plain {
                legend { (tx.get("cabinet-promo-field-kind")) }
                @for (value, key) in [("percent_off", "cabinet-promo-kind-percent"), ("amount_off", "cabinet-promo-kind-amount"), ("extra_days", "cabinet-promo-kind-days")] {
                    label.check {
                        input type="radio" name="kind" value=(value) checked[kind == value];
                        " " (tx.get(key))
                    }
                }
            }
            label for="value" { (tx.get("cabinet-promo-field-value")) }
            input #value name="value" type="text" inputmode="decimal" required value=(sent.value);
            label for="max_uses" { (tx.get("cabinet-promo-field-max-uses")) }
            input #max_uses name="max_uses" type="number" min="1" inputmode="numeric" value=(sent.max_uses);
            label for="per_customer" { (tx.get("cabinet-promo-field-per-customer")) }
            input #per_customer name="per_customer" type="number" min="1" inputmode="numeric"
                value=(if sent.per_customer.is_empty() { "1" } else { sent.per_customer.as_str() });
            label.check {
                input type="checkbox" name="first_purchase_only" checked[sent.first_purchase_only];
                " " (tx.get("cabinet-promo-field-first-purchase-only"))
            }
            fieldset.plain {
                legend { (tx.get("cabinet-promo-field-plans")) }
                @for p in &plans.plans {
                    @let id = p.plan.plan_id.to_string();
                    @let term = plan_term(tx.0, &p.plan);
                    label.check {
                        input type="checkbox" name="plans" value=(id) checked[sent.plans.contains(&id)];
                        " " (tx.with("shop-plan", &[("term", term.as_str().into()), ("price", p.price.customer.into())]))
                    }
                }
            }
            label for="expires" { (tx.get("cabinet-promo-field-expires")) }
            input #expires name="expires" type="date" value=(sent.expires);
            p { button.primary type="submit" { (tx.get("cabinet-promo-create")) } }
        }
    }
}
