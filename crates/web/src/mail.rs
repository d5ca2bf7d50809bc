//! Mail worded for people (docs/decisions.md, "Mail"): each message as plain text and as HTML
//! from the same catalogue texts, in the reader's language, signed by the account's brand. The
//! HTML is one column with inline styles (mail programs drop style sheets), in the colours of
//! the page kit and the account's accent.

use maud::{DOCTYPE, Markup, html};
use vp_domain::Lang;
use vp_i18n::Texts;
use vp_ports::{MailContent, MailRenderer, MailSigner, RenderedMail};

/// The page kit's link colour, where the account chose no accent.
const DEFAULT_ACCENT: &str = "#0b57d0";

/// Words the outbox's messages.
#[derive(Debug, Clone, Copy, Default)]
pub struct MailTexts;

/// A message's parts before they are laid out: paragraphs, then an optional link button.
struct Body {
    subject: String,
    paragraphs: Vec<String>,
    link: Option<(String, String)>,
}

impl MailRenderer for MailTexts {
    fn render(&self, content: &MailContent, lang: Lang, signer: &MailSigner) -> RenderedMail {
        let body = body(content, Texts(lang), signer);
        RenderedMail {
            text: text(&body, Texts(lang), signer),
            html: page(&body, lang, signer).into_string(),
            subject: body.subject,
            // Every message so far is one the reader asked for or must get (a check, a
            // sign-in link); mail a reader can stop will carry its address here.
            list_unsubscribe: None,
        }
    }
}

fn body(content: &MailContent, tx: Texts, signer: &MailSigner) -> Body {
    let brand = signer.brand.as_str();
    match content {
        MailContent::Test => Body {
            subject: tx.with("mail-test-subject", &[("brand", brand.into())]),
            paragraphs: vec![tx.with("mail-test-body", &[("brand", brand.into())])],
            link: None,
        },
        MailContent::CabinetInvitation { link, expires_at, reset }
        | MailContent::OperatorInvitation { link, expires_at, reset } => {
            let until = tx.moment(&signer.time_zone, *expires_at);
            let operator = matches!(content, MailContent::OperatorInvitation { .. });
            let (subject, lead) = match (operator, *reset) {
                (false, true) => ("mail-reset-subject", "mail-reset-body"),
                (false, false) => ("mail-invitation-subject", "mail-invitation-body"),
                (true, true) => ("mail-operator-reset-subject", "mail-operator-reset-body"),
                (true, false) => ("mail-operator-invitation-subject", "mail-operator-invitation-body"),
            };
            Body {
                subject: tx.with(subject, &[("brand", brand.into())]),
                paragraphs: vec![
                    tx.with(lead, &[("brand", brand.into())]),
                    tx.with("mail-link-until", &[("until", until.as_str().into())]),
                ],
                link: Some((tx.get("mail-invitation-button"), link.clone())),
            }
        }
        MailContent::ShopSignIn { code, link, expires_at } => {
            let until = tx.moment(&signer.time_zone, *expires_at);
            Body {
                subject: tx.with("mail-sign-in-subject", &[("brand", brand.into()), ("code", code.as_str().into())]),
                paragraphs: vec![
                    tx.with("mail-sign-in-body", &[("brand", brand.into()), ("code", code.as_str().into())]),
                    tx.with("mail-sign-in-until", &[("until", until.as_str().into())]),
                    tx.get("mail-sign-in-not-you"),
                ],
                link: Some((tx.get("mail-sign-in-button"), link.clone())),
            }
        }
        MailContent::ShopOrderPaid { payment_id, amount, item, paid_at, expires_at, connect_url, shop_url } => {
            let what = crate::pages::order::item(tx.0, *item);
            let when = tx.moment(&signer.time_zone, *paid_at);
            let amount = vp_domain::Money::from_kopecks(*amount);
            let term = match expires_at {
                Some(at) => tx.with("mail-order-until", &[("day", signer.time_zone.day(*at).into())]),
                None => tx.get("mail-order-lifetime"),
            };
            Body {
                subject: tx.with("mail-order-subject", &[("brand", brand.into())]),
                paragraphs: vec![
                    tx.with(
                        "mail-order-paid",
                        &[
                            ("amount", amount.into()),
                            ("what", what.as_str().into()),
                            ("when", when.as_str().into()),
                            ("order", payment_id.as_str().into()),
                        ],
                    ),
                    term,
                    tx.with("mail-order-shop", &[("shop", shop_url.as_str().into())]),
                ],
                link: Some((tx.get("page-order-connect"), connect_url.clone())),
            }
        }
        MailContent::ShopTrialStarted { expires_at, connect_url, shop_url } => Body {
            subject: tx.with("mail-trial-subject", &[("brand", brand.into())]),
            paragraphs: vec![
                tx.with("mail-trial-started", &[("until", tx.moment(&signer.time_zone, *expires_at).as_str().into())]),
                tx.get("mail-trial-connect"),
                tx.with("mail-order-shop", &[("shop", shop_url.as_str().into())]),
            ],
            link: Some((tx.get("page-order-connect"), connect_url.clone())),
        },
        MailContent::GiftPaid { for_recipient, months, bot_url, web_url, lapses_at } => {
            let what = crate::pages::order::item(tx.0, vp_ports::OrderItem::Subscription { months: *months });
            let until = tx.moment(&signer.time_zone, *lapses_at);
            let (subject, lead) = match for_recipient {
                true => ("mail-gift-received-subject", "mail-gift-received"),
                false => ("mail-gift-bought-subject", "mail-gift-bought"),
            };
            let mut paragraphs = vec![
                tx.with(lead, &[("brand", brand.into()), ("what", what.as_str().into())]),
                tx.with("mail-gift-until", &[("until", until.as_str().into())]),
            ];
            if let Some(bot) = bot_url {
                paragraphs.push(tx.with("mail-gift-in-telegram", &[("link", bot.as_str().into())]));
            }
            Body {
                subject: tx.with(subject, &[("brand", brand.into())]),
                paragraphs,
                link: Some((tx.get("mail-gift-button"), web_url.clone())),
            }
        }
    }
}

fn text(body: &Body, tx: Texts, signer: &MailSigner) -> String {
    let mut out = body.paragraphs.join("\n\n");
    if let Some((label, url)) = &body.link {
        out.push_str(&format!("\n\n{label}:\n{url}"));
    }
    out.push_str(&format!("\n\n-- \n{}", signer.brand));
    if let Some(support) = &signer.style.support_url {
        out.push_str(&format!("\n{}: {support}", tx.get("page-support")));
    }
    out.push('\n');
    out
}

fn page(body: &Body, lang: Lang, signer: &MailSigner) -> Markup {
    let tx = Texts(lang);
    let accent = signer.style.accent_color.as_deref().unwrap_or(DEFAULT_ACCENT);
    let button = format!(
        "display:inline-block;padding:12px 20px;border-radius:8px;background:{accent};color:#ffffff;\
         text-decoration:none;font-weight:600"
    );
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width,initial-scale=1";
                title { (body.subject) }
            }
            body style="margin:0;padding:16px;background:#f0f2f5;color:#1b1f24;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:16px;line-height:1.5" {
                div style="max-width:36rem;margin:0 auto;background:#ffffff;border-radius:12px;padding:20px" {
                    p style="margin:0 0 16px;font-weight:700;font-size:18px" {
                        @if let Some(logo) = &signer.style.logo_url {
                            img src=(logo) alt="" width="32" height="32" style="vertical-align:middle;margin-right:8px;border-radius:6px";
                        }
                        (signer.brand)
                    }
                    @for paragraph in &body.paragraphs { p style="margin:0 0 16px" { (paragraph) } }
                    @if let Some((label, url)) = &body.link {
                        p style="margin:0 0 16px" { a href=(url) style=(button) { (label) } }
                        p style="margin:0 0 16px;font-size:14px;color:#4a5260;overflow-wrap:anywhere" { (url) }
                    }
                    @if let Some(support) = &signer.style.support_url {
                        p style="margin:16px 0 0;font-size:14px" { a href=(support) style={ "color:" (accent) } { (tx.get("page-support")) } }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;
    use vp_ports::AccountStyle;

    use super::*;

    fn signer() -> MailSigner {
        MailSigner {
            brand: "Fast <VPN>".into(),
            style: AccountStyle {
                accent_color: Some("#1a7f37".into()),
                support_url: Some("https://help.example/".into()),
                logo_url: None,
            },
            time_zone: Default::default(),
        }
    }

    #[test]
    fn a_message_says_the_same_in_its_text_and_its_html_in_the_readers_language() {
        let invitation = MailContent::CabinetInvitation {
            link: "https://vpn.example/cabinet/invitation/abc?x=1&y=2".into(),
            expires_at: datetime!(2026-11-30 22:05 UTC),
            reset: false,
        };
        for lang in Lang::ALL {
            let mail = MailTexts.render(&invitation, lang, &signer());
            let until = vp_i18n::moment(lang, &Default::default(), datetime!(2026-11-30 22:05 UTC));
            assert!(mail.subject.contains("Fast <VPN>"), "{}", mail.subject);
            assert!(mail.text.contains("https://vpn.example/cabinet/invitation/abc?x=1&y=2"), "{}", mail.text);
            assert!(mail.text.contains(&until) && until.contains("MSK"), "the time in the zone: {}", mail.text);
            assert!(mail.text.contains("https://help.example/"), "{}", mail.text);
            assert!(mail.html.contains("href=\"https://vpn.example/cabinet/invitation/abc?x=1&amp;y=2\""));
            assert!(mail.html.contains("Fast &lt;VPN&gt;"), "the brand is escaped in HTML");
            assert!(mail.html.contains("background:#1a7f37"), "the account's accent colours the button");
            assert!(mail.html.contains(&format!("lang=\"{}\"", lang.code())));
        }
        let ru = MailTexts.render(&invitation, Lang::Ru, &signer());
        let en = MailTexts.render(&invitation, Lang::En, &signer());
        assert_ne!(ru.text, en.text, "each language has its own words");
        assert!(ru.text.contains("01.12.2026"), "the Moscow day, written the Russian way: {}", ru.text);
    }

    #[test]
    fn a_password_reset_is_not_worded_as_an_invitation() {
        let content = |reset| MailContent::CabinetInvitation {
            link: "https://vpn.example/x".into(),
            expires_at: datetime!(2026-11-30 10:00 UTC),
            reset,
        };
        let (invite, reset) = (
            MailTexts.render(&content(false), Lang::En, &signer()),
            MailTexts.render(&content(true), Lang::En, &signer()),
        );
        assert_ne!(invite.subject, reset.subject);
        assert!(reset.subject.to_lowercase().contains("password"), "{}", reset.subject);
    }

    #[test]
    fn the_test_message_names_the_brand_and_asks_for_nothing() {
        let mail = MailTexts.render(&MailContent::Test, Lang::En, &signer());
        assert!(mail.subject.contains("Fast <VPN>"));
        assert!(!mail.html.contains("<a href=\"https://vpn"), "no link to follow");
        assert_eq!(mail.list_unsubscribe, None);
    }
}
