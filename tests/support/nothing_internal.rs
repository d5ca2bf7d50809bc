//! What a customer reads carries none of our internals (docs/decisions.md, "Times customers
//! read"): no client id (the partner chose it, `telegram:…` and `email:…` are ours), no id of
//! another kind this service issues (`cli_…`, `acc_…`, `key_…`), no key or secret, and no
//! status or error as the code names it (`past_due`, `TRIAL_ALREADY_USED`). An order's number
//! (`pay_…`) is shown on purpose: it is what a customer quotes to support. Links, addresses and
//! `@bot` names are read past: a link carries tokens by design.

/// Prefixes of ids this service issues that no customer needs (`pay_` is the order number).
const INTERNAL_PREFIXES: &[&str] =
    &["acc", "cli", "we", "msg", "wd", "bcs", "usr", "key", "req", "led", "att", "ssi", "sif", "ren", "promo"];
/// Secrets' prefixes: an API key, a webhook signing secret.
const SECRET_PREFIXES: &[&str] = &["vpk_", "whsec_"];
/// The spec's status names, foreign words in a Russian text.
const STATUS_NAMES: &[&str] =
    &["active", "expired", "suspended", "pending", "succeeded", "canceled", "cancelled", "refunded", "blocked"];

/// The words of `text` that name something internal, and the `ids` (client ids the test made)
/// it contains; `russian` also looks for the status names, which in English are plain words.
pub fn internal_words(text: &str, ids: &[&str], russian: bool) -> Vec<String> {
    let mut found: Vec<String> = ids.iter().filter(|id| text.contains(**id)).map(|id| (*id).to_owned()).collect();
    let separators = |c: char| c.is_whitespace() || "()[]{}<>,;\"'«»|".contains(c);
    for word in text.split(separators) {
        let word = word.trim_matches(|c: char| ".!?:…—–-".contains(c));
        let read_past = word.contains("://") || word.starts_with('@') || word.starts_with('/') || word.contains('@');
        if word.is_empty() || read_past {
            continue;
        }
        let internal = client_id(word)
            || issued_id(word)
            || SECRET_PREFIXES.iter().any(|p| word.starts_with(p))
            || code_name(word)
            || (russian && STATUS_NAMES.contains(&word.to_lowercase().as_str()));
        if internal {
            found.push(word.to_owned());
        }
    }
    found
}

/// Fails naming what in `what` is internal.
#[track_caller]
pub fn assert_nothing_internal(what: &str, text: &str, ids: &[&str], russian: bool) {
    let found = internal_words(text, ids, russian);
    assert!(found.is_empty(), "{what} shows a customer {found:?}:\n{text}");
}

/// `telegram:<digits>` (and `:<number>` for a further subscription) or `email:<hex>`, the ids
/// the bot and the web shop give their clients.
fn client_id(word: &str) -> bool {
    let digits = word
        .strip_prefix("telegram:")
        .is_some_and(|d| !d.is_empty() && d.split(':').all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())));
    let hex = word.strip_prefix("email:").is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()));
    digits || hex
}

/// `<prefix>_<suffix>` of an internal kind.
fn issued_id(word: &str) -> bool {
    word.split_once('_').is_some_and(|(prefix, rest)| {
        INTERNAL_PREFIXES.contains(&prefix)
            && !rest.is_empty()
            && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    })
}

/// A name from the code: `snake_case` or `SCREAMING_SNAKE`, letters joined by underscores,
/// except an order's number.
fn code_name(word: &str) -> bool {
    let snake = word.contains('_')
        && !word.starts_with('_')
        && !word.ends_with('_')
        && word.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
        && (word.bytes().all(|b| !b.is_ascii_uppercase()) || word.bytes().all(|b| !b.is_ascii_lowercase()));
    snake && !word.starts_with("pay_")
}

#[test]
fn the_scan_finds_ids_codes_and_foreign_status_names_and_reads_past_links() {
    let text = "Подписка telegram:717171 (cli_Ab3-x) active, ошибка TRIAL_ALREADY_USED; past_due. \
                Ссылка https://vpn.example/sub/tok_en?x=email:ab12 для @demo_vpn_bot, заказ pay_Q9x-Tz, a@b_c.ru";
    assert_eq!(
        internal_words(text, &[], true),
        ["telegram:717171", "cli_Ab3-x", "active", "TRIAL_ALREADY_USED", "past_due"]
    );
    assert_eq!(internal_words("Your subscription is active until 1 May.", &[], false), Vec::<String>::new());
    assert_eq!(internal_words("Client c-42 renewed", &["c-42"], false), ["c-42"]);
    assert_eq!(internal_words("key vpk_abc and whsec_xyz", &[], false), ["vpk_abc", "whsec_xyz"]);
}
