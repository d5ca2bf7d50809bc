//! The webhook verification snippets of docs/quickstart.md, each run in its own language against
//! a `payment.succeeded` request the service really signed and sent: the genuine request is
//! accepted, also beside a second, unknown signature (a rotation); a tampered body, another
//! secret's signature and a correctly signed but stale timestamp are rejected. Python and Node
//! run wherever they are installed; Go and PHP when their toolchains are (CI installs them and
//! sets `VP_TEST_SNIPPETS=require`, which makes a missing one a failure).

use crate::support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use support::installed;
use support::partner::buy;
use support::receiver::{Delivered, Receiver};
use support::server::{Backend, Server};

const QUICKSTART: &str = include_str!("../docs/quickstart.md");

/// The snippet of `lang` (a fenced block opened with "```<lang> verify-webhook").
fn snippet(lang: &str) -> String {
    let opening = format!("```{lang} verify-webhook\n");
    let start = QUICKSTART.find(&opening).unwrap_or_else(|| panic!("no {lang} snippet in docs/quickstart.md"));
    let rest = &QUICKSTART[start + opening.len()..];
    rest[..rest.find("```").expect("a closed block")].to_owned()
}

/// A language: the program made of its snippet and a driver printing `accept` or `reject` for
/// the request in the environment (`S` secret, `I` id, `T` timestamp, `G` signatures) and the
/// body in the file given as the last argument; and how to run it.
struct Language {
    name: &'static str,
    tool: &'static str,
    write: fn(&Path, &str),
    run: fn(&Path) -> Command,
}

fn languages() -> Vec<Language> {
    vec![
        Language {
            name: "python",
            tool: "python3",
            write: |dir, code| {
                let driver = "\nimport os, sys\nprint('accept' if verify_webhook(os.environ['S'], os.environ['I'], \
                              os.environ['T'], os.environ['G'], open(sys.argv[1], 'rb').read()) else 'reject')\n";
                std::fs::write(dir.join("verify.py"), format!("{code}{driver}")).unwrap();
            },
            run: |dir| {
                let mut c = Command::new("python3");
                c.arg(dir.join("verify.py"));
                c
            },
        },
        Language {
            name: "javascript",
            tool: "node",
            write: |dir, code| {
                let driver = "\nconst body = require('node:fs').readFileSync(process.argv[2]);\nconst e = process.env;\n\
                              console.log(verifyWebhook(e.S, e.I, e.T, e.G, body) ? 'accept' : 'reject');\n";
                std::fs::write(dir.join("verify.js"), format!("{code}{driver}")).unwrap();
            },
            run: |dir| {
                let mut c = Command::new("node");
                c.arg(dir.join("verify.js"));
                c
            },
        },
        Language {
            name: "go",
            tool: "go",
            write: |dir, code| {
                std::fs::write(dir.join("go.mod"), "module verify\n\ngo 1.19\n").unwrap();
                std::fs::write(dir.join("verify.go"), code.replacen("package webhooks", "package main", 1)).unwrap();
                let driver = "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tbody, _ := os.ReadFile(os.Args[1])\n\t\
                              if VerifyWebhook(os.Getenv(\"S\"), os.Getenv(\"I\"), os.Getenv(\"T\"), os.Getenv(\"G\"), body) {\n\t\t\
                              fmt.Println(\"accept\")\n\t} else {\n\t\tfmt.Println(\"reject\")\n\t}\n}\n";
                std::fs::write(dir.join("main.go"), driver).unwrap();
                let built = Command::new("go")
                    .args(["build", "-o", "verify", "."])
                    .current_dir(dir)
                    .env("GOCACHE", dir.join(".gocache"))
                    .env("GOPATH", dir.join(".gopath"))
                    .env("GOFLAGS", "-mod=mod")
                    .output()
                    .expect("run go build");
                assert!(built.status.success(), "go build: {}", String::from_utf8_lossy(&built.stderr));
            },
            run: |dir| Command::new(dir.join("verify")),
        },
        Language {
            name: "php",
            tool: "php",
            write: |dir, code| {
                let driver = "\necho verify_webhook(getenv('S'), getenv('I'), getenv('T'), getenv('G'), \
                              file_get_contents($argv[1])) ? \"accept\\n\" : \"reject\\n\";\n";
                std::fs::write(dir.join("verify.php"), format!("{code}{driver}")).unwrap();
            },
            run: |dir| {
                let mut c = Command::new("php");
                c.arg(dir.join("verify.php"));
                c
            },
        },
    ]
}

/// A request as the partner's handler sees it.
struct Request {
    id: String,
    timestamp: String,
    signatures: String,
    body: Vec<u8>,
}

fn decide(lang: &Language, dir: &Path, secret: &str, r: &Request) -> String {
    let body = dir.join("body");
    std::fs::write(&body, &r.body).unwrap();
    let out = (lang.run)(dir)
        .arg(&body)
        .env("S", secret)
        .env("I", &r.id)
        .env("T", &r.timestamp)
        .env("G", &r.signatures)
        .output()
        .expect("run the snippet");
    assert!(out.status.success(), "{}: {}", lang.name, String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn sign(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> String {
    vp_webhooks::signature::sign(secret, id, timestamp, body).expect("a whsec_ secret")
}

#[test]
fn the_quickstarts_verification_snippets_accept_the_services_signature_and_nothing_else() {
    let env = [("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1")];
    let Some(s) = Server::start_with(Backend::Sqlite, "snippets", &env) else { return };
    let receiver = Receiver::start();
    let added = s.cli(&["endpoint", "add", &s.account_id, &receiver.url, "--type", "payment.succeeded"]);
    let secret = added["secret"].as_str().unwrap().to_owned();
    buy(&s, "snippet-buyer", 1);
    let sent: Delivered = receiver.next_of("payment.succeeded", Duration::from_secs(10));
    assert!(sent.signed_by(&secret));
    let genuine = Request {
        id: sent.header("webhook-id").to_owned(),
        timestamp: sent.header("webhook-timestamp").to_owned(),
        signatures: sent.header("webhook-signature").to_owned(),
        body: sent.body.clone().into_bytes(),
    };
    let other_secret = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
    let timestamp: i64 = genuine.timestamp.parse().unwrap();
    let mut tampered = genuine.body.clone();
    let last = tampered.len() - 2;
    tampered[last] ^= 1;
    let stale_at = timestamp - 600;
    let cases = [
        ("the service's request", clone(&genuine), "accept"),
        (
            "beside another secret's signature (a rotation)",
            Request {
                signatures: format!(
                    "{} {}",
                    sign(other_secret, &genuine.id, timestamp, &genuine.body),
                    genuine.signatures
                ),
                ..clone(&genuine)
            },
            "accept",
        ),
        ("a tampered body", Request { body: tampered, ..clone(&genuine) }, "reject"),
        (
            "another secret's signature",
            Request { signatures: sign(other_secret, &genuine.id, timestamp, &genuine.body), ..clone(&genuine) },
            "reject",
        ),
        (
            "a stale timestamp, correctly signed",
            Request {
                timestamp: stale_at.to_string(),
                signatures: sign(&secret, &genuine.id, stale_at, &genuine.body),
                ..clone(&genuine)
            },
            "reject",
        ),
    ];

    let required = std::env::var("VP_TEST_SNIPPETS").is_ok_and(|v| v == "require");
    let mut ran = Vec::new();
    for lang in languages() {
        if !installed(lang.tool) {
            assert!(!required, "VP_TEST_SNIPPETS=require but {} is not installed", lang.tool);
            eprintln!("SKIPPED: the {} snippet ({} is not installed)", lang.name, lang.tool);
            continue;
        }
        let dir = std::env::temp_dir().join(format!("vp-snippet-{}-{}", lang.name, std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        (lang.write)(&dir, &snippet(lang.name));
        for (what, request, expected) in &cases {
            assert_eq!(decide(&lang, &dir, &secret, request), *expected, "{}: {what}", lang.name);
        }
        let _ = std::fs::remove_dir_all(&dir);
        ran.push(lang.name);
    }
    assert!(ran.contains(&"python") || ran.contains(&"javascript"), "at least one snippet ran: {ran:?}");
}

fn clone(r: &Request) -> Request {
    Request { id: r.id.clone(), timestamp: r.timestamp.clone(), signatures: r.signatures.clone(), body: r.body.clone() }
}
