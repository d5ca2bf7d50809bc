//! The docs name source files and folders by path (`crates/app/src/payments/invoices.rs`, or
//! `app/src/...` below `crates/`); a path that no longer exists sends a newcomer nowhere, so
//! every such path in `docs/` and the README must exist. The architecture map must likewise name
//! every service of `Services` and every repository trait of the ports.

use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The text of every document that names paths.
fn documents() -> Vec<(PathBuf, String)> {
    let root = root();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ is there")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.push(root.join("README.md"));
    docs.sort();
    docs.into_iter().map(|p| (p.clone(), std::fs::read_to_string(&p).expect("readable"))).collect()
}

/// The code spans of a Markdown text (between single backticks).
fn code_spans(text: &str) -> Vec<&str> {
    text.split("```").step_by(2).flat_map(|prose| prose.split('`').skip(1).step_by(2)).collect()
}

/// Whether a code span is a path into the repository: a relative path of plain characters
/// with at least one slash, naming a source or a folder (not a URL, a route, a glob or a
/// command line).
fn as_path(span: &str) -> Option<&str> {
    const FIRST: [&str; 8] = ["crates/", "docs/", "migrations/", "deploy/", "contract/", "sdk/", "tests/", ".ci/"];
    const CRATES: [&str; 20] = [
        "api/",
        "app/",
        "bench/",
        "bots/",
        "domain/",
        "http/",
        "i18n/",
        "limits/",
        "metrics/",
        "outbound/",
        "panel/",
        "payments/",
        "ports/",
        "standin/",
        "store/",
        "telegram/",
        "testkit/",
        "web/",
        "webhooks/",
        "xtask/",
    ];
    let plain = span.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b));
    let rooted = FIRST.iter().chain(&CRATES).any(|p| span.starts_with(p));
    (plain && rooted && span.contains('/') && !span.contains("//")).then_some(span)
}

/// The folders git ignores because tests and tools write them (`tests/screenshots/`,
/// `contract/telegram/.venv/`): a fresh clone has them only once something wrote there, so the
/// docs may name them regardless.
fn written_by_tests() -> Vec<String> {
    let ignored = std::fs::read_to_string(root().join(".gitignore")).expect(".gitignore is there");
    ignored.lines().map(str::trim).filter(|l| l.ends_with('/') && l.contains('/')).map(str::to_owned).collect()
}

#[test]
fn every_source_path_the_docs_name_exists() {
    let root = root();
    let outputs = written_by_tests();
    let mut missing = Vec::new();
    let mut checked = 0;
    for (doc, text) in documents() {
        for path in code_spans(&text).into_iter().filter_map(as_path) {
            if outputs.iter().any(|o| o.trim_end_matches('/') == path.trim_end_matches('/')) {
                continue;
            }
            checked += 1;
            let found = root.join(path).exists() || root.join("crates").join(path).exists();
            if !found {
                missing.push(format!("{}: {path}", doc.strip_prefix(&root).unwrap_or(&doc).display()));
            }
        }
    }
    assert!(checked > 50, "the docs' paths were not found ({checked})");
    assert!(missing.is_empty(), "paths named in the docs that do not exist:\n{}", missing.join("\n"));
}

#[test]
fn a_path_is_told_from_a_route_a_url_and_a_glob() {
    assert_eq!(as_path("app/src/payments/invoices.rs"), Some("app/src/payments/invoices.rs"));
    assert_eq!(as_path("crates/store/src/repo/"), Some("crates/store/src/repo/"));
    assert_eq!(as_path("/connect/{token}"), None);
    assert_eq!(as_path("store/src/repo/*.rs"), None);
    assert_eq!(as_path("https://vpn.example/x"), None);
    assert_eq!(as_path("vp-api bot stats"), None);
    assert_eq!(code_spans("a `x/y.rs` b ```\n`not/this.rs`\n``` c `z/w.rs`"), ["x/y.rs", "z/w.rs"]);
}

#[test]
fn folders_the_tests_write_are_told_from_sources() {
    let outputs = written_by_tests();
    assert!(outputs.contains(&"tests/screenshots/".to_owned()), "{outputs:?}");
    assert!(!outputs.iter().any(|o| o.starts_with("crates/")), "{outputs:?}");
}

/// The types a struct's fields hold behind an `Arc` (`pub name: Arc<Type>,`).
fn arc_fields(source: &str, strukt: &str) -> Vec<String> {
    let start = source.find(&format!("pub struct {strukt} {{")).expect("the struct is there");
    let body = &source[start..];
    let body = &body[..body.find("\n}").expect("the struct ends")];
    body.lines()
        .filter_map(|l| l.trim().strip_prefix("pub ")?.split_once(": Arc<")?.1.strip_suffix(">,"))
        .map(str::to_owned)
        .collect()
}

/// The repository traits the ports declare (`pub trait NameRepo`).
fn repository_traits() -> Vec<String> {
    let ports = root().join("crates/ports/src");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(ports.join("store")).expect("ports/src/store").flatten().map(|e| e.path()).collect();
    files.push(ports.join("local_panel.rs"));
    let mut traits: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).expect("readable");
            text.lines()
                .filter_map(|l| l.strip_prefix("pub trait "))
                .map(|rest| rest.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or("").to_owned())
                .filter(|name| name.ends_with("Repo"))
                .collect::<Vec<_>>()
        })
        .collect();
    traits.sort();
    traits
}

#[test]
fn the_architecture_map_names_every_service_and_every_repository() {
    let map = std::fs::read_to_string(root().join("docs/architecture.md")).expect("docs/architecture.md");
    let named = code_spans(&map);
    let services_rs = std::fs::read_to_string(root().join("crates/app/src/services.rs")).expect("services.rs");
    let services = arc_fields(&services_rs, "Services");
    let repositories = repository_traits();
    assert!(services.len() >= 20 && repositories.len() >= 20, "found {services:?} and {repositories:?}");
    let missing: Vec<&String> =
        services.iter().chain(&repositories).filter(|name| !named.contains(&name.as_str())).collect();
    assert!(missing.is_empty(), "docs/architecture.md does not name: {missing:?}");
}

#[test]
fn services_are_read_from_the_struct_and_repositories_from_the_ports() {
    let source = "pub struct Other {\n    pub x: Arc<X>,\n}\npub struct Services {\n    /// Doc.\n    pub payments: Arc<Payments>,\n    pub(crate) inner: Arc<Hidden>,\n    pub clock: Box<dyn Clock>,\n}\n";
    assert_eq!(arc_fields(source, "Services"), ["Payments"]);
    let repositories = repository_traits();
    assert!(repositories.contains(&"InvoiceRepo".to_owned()) && repositories.contains(&"LocalPanelRepo".to_owned()));
}
