//! The catalogues against each other and against the code: the same keys in every language,
//! no key without a user, no key used that a catalogue lacks.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use vp_i18n::{Arg, Lang, text, text_with};

/// Where texts are shown from: every adapter that talks to people, and the app's notices.
const USERS: [&str; 6] = ["web", "http", "app", "telegram", "bots", "i18n"];
const PREFIXES: [&str; 6] = ["page-", "cabinet-", "notice-", "bot-", "api-", "shop-"];

fn keys(source: &str) -> BTreeSet<String> {
    source
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))
        .filter_map(|l| l.split_once(" =").map(|(k, _)| k.trim().to_owned()))
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every Rust source of the crates that show texts, as one string.
fn user_sources() -> String {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for name in USERS {
        rust_files(&crates.join(name).join("src"), &mut files);
    }
    assert!(files.len() > 20, "the sources were not found under {}", crates.display());
    files.iter().map(|f| std::fs::read_to_string(f).unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// String literals in the sources that look like catalogue keys.
fn literal_keys(sources: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for piece in sources.split('"').skip(1).step_by(2) {
        let looks_like_key = PREFIXES.iter().any(|p| piece.starts_with(p))
            && piece.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if looks_like_key {
            found.insert(piece.to_owned());
        }
    }
    found
}

#[test]
fn every_language_has_the_same_keys() {
    let [(_, en), (_, ru)] = vp_i18n::sources();
    let (en, ru) = (keys(en), keys(ru));
    assert!(!en.is_empty());
    let only_en: Vec<_> = en.difference(&ru).collect();
    let only_ru: Vec<_> = ru.difference(&en).collect();
    assert!(only_en.is_empty() && only_ru.is_empty(), "missing in ru: {only_en:?}; missing in en: {only_ru:?}");
}

#[test]
fn every_key_has_a_user_and_every_key_used_exists() {
    let [(_, en), _] = vp_i18n::sources();
    let catalogue = keys(en);
    let sources = user_sources();
    let unused: Vec<_> = catalogue.iter().filter(|k| !sources.contains(&format!("\"{k}\""))).collect();
    assert!(unused.is_empty(), "keys nobody uses: {unused:?}");
    let unknown: Vec<_> = literal_keys(&sources).into_iter().filter(|k| !catalogue.contains(k)).collect();
    assert!(unknown.is_empty(), "keys the catalogues lack: {unknown:?}");
}

/// The variables (`$name`) a message of the source reads.
fn variables(source: &str, key: &str) -> BTreeSet<String> {
    let mut lines = source.lines().skip_while(|l| l.split_once(" =").is_none_or(|(k, _)| k.trim() != key));
    let first = lines.next().unwrap_or_default();
    let body: Vec<&str> = std::iter::once(first).chain(lines.take_while(|l| l.starts_with(' '))).collect();
    body.join("\n")
        .split('$')
        .skip(1)
        .map(|rest| rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').collect())
        .collect()
}

/// A value of the type a variable's name says: `amount` money, `day` a date, `count`-like
/// names numbers, anything else text.
fn sample(name: &str) -> Arg<'static> {
    match name {
        n if n.ends_with("amount") => Arg::Money("5988.00".parse().unwrap()),
        n if n.ends_with("day") => Arg::Date(time::macros::date!(2026 - 03 - 07)),
        n if ["count", "days", "used", "limit", "max", "minutes", "hours", "n"].contains(&n)
            || n.ends_with("count")
            || n.ends_with("seconds") =>
        {
            Arg::Count(3)
        }
        _ => Arg::Text("Happ"),
    }
}

#[test]
fn every_key_formats_without_leaving_a_placeholder() {
    for (lang, source) in vp_i18n::sources() {
        for key in keys(source) {
            let names = variables(source, &key);
            let args: Vec<(&str, Arg<'_>)> = names.iter().map(|n| (n.as_str(), sample(n))).collect();
            let shown = text_with(lang, &key, &args);
            assert!(!shown.is_empty() && shown != key, "{key} in {}", lang.code());
            assert!(!shown.contains('{') && !shown.contains('\u{2068}'), "{key} in {}: {shown}", lang.code());
        }
    }
}

#[test]
fn russian_days_left_agree_with_the_number() {
    let day = time::macros::date!(2026 - 03 - 07);
    let left =
        |lang, n| text_with(lang, "page-subscription-until-day", &[("day", Arg::Date(day)), ("days", Arg::Count(n))]);
    assert_eq!(left(Lang::Ru, 1), "07.03.2026 (остался 1 день)");
    assert_eq!(left(Lang::Ru, 3), "07.03.2026 (осталось 3 дня)");
    assert_eq!(left(Lang::Ru, 5), "07.03.2026 (осталось 5 дней)");
    assert_eq!(left(Lang::Ru, 11), "07.03.2026 (осталось 11 дней)");
    assert_eq!(left(Lang::Ru, 21), "07.03.2026 (остался 21 день)");
    assert_eq!(left(Lang::Ru, 365), "07.03.2026 (осталось 365 дней)");
    assert_eq!(left(Lang::Ru, 0), "07.03.2026 (осталось 0 дней)");
    assert_eq!(left(Lang::En, 1), "2026-03-07 (1 day left)");
    assert_eq!(left(Lang::En, 365), "2026-03-07 (365 days left)");
}

#[test]
fn an_unknown_key_shows_itself_rather_than_nothing() {
    assert_eq!(text(Lang::Ru, "page-no-such-key"), "page-no-such-key");
}
