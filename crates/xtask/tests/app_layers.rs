//! The app crate's modules stand in layers (crates/app/README.md, "Layers"): a module imports
//! only from its own layer or a lower one, and no imports close a cycle. A newcomer can then
//! tell which service may call which, and a change low down cannot depend on one above it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn app_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../app/src")
}

/// The layers of the README's table, lowest first: each row's number and its modules.
fn layers(readme: &str) -> BTreeMap<String, usize> {
    let table = readme.split("## Layers").nth(1).expect("the README has a Layers section");
    let mut layer_of = BTreeMap::new();
    for row in table.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| layer") && !l.starts_with("| -")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let number: usize = cells[1].split(' ').next().and_then(|n| n.parse().ok()).expect("a layer number");
        for module in cells[2].split(',').map(|m| m.trim().trim_matches('`')) {
            assert!(layer_of.insert(module.to_owned(), number).is_none(), "{module} is in two layers");
        }
    }
    layer_of
}

/// The top-level modules of `src/`: its files and folders but `lib.rs`.
fn modules(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .expect("crates/app/src")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            match name.strip_suffix(".rs") {
                Some("lib") => None,
                Some(stem) => Some(stem.to_owned()),
                None => e.path().is_dir().then_some(name),
            }
        })
        .collect()
}

/// The source without comments and without its unit tests (which may reach anywhere).
fn code_of(source: &str) -> String {
    let without_tests = source.split("#[cfg(test)]").next().unwrap_or("");
    without_tests.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The top-level modules a piece of code names after `crate::`, in paths and `use` trees
/// (`crate::a::X`, `crate::{a::X, b}`).
fn named_modules(code: &str) -> BTreeSet<String> {
    let ident =
        |s: &str| s.trim_start().split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or("").to_owned();
    let mut named = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        let Some(tree) = rest.strip_prefix('{') else {
            named.insert(ident(rest));
            continue;
        };
        let (mut depth, mut item) = (0, String::new());
        for c in tree.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    named.insert(ident(&item));
                    item.clear();
                    continue;
                }
                _ => {}
            }
            item.push(c);
        }
        named.insert(ident(&item));
    }
    named.retain(|m| !m.is_empty());
    named
}

/// Every import between two top-level modules, with the files that make it.
fn imports(src: &Path, modules: &BTreeSet<String>) -> BTreeMap<(String, String), BTreeSet<String>> {
    let mut files = vec![src.to_path_buf()];
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).expect("readable").flatten().map(|e| e.path()));
            continue;
        }
        let relative = path.strip_prefix(src).expect("under src").to_string_lossy().into_owned();
        let from = relative.split('/').next().unwrap_or("").trim_end_matches(".rs").to_owned();
        if path.extension().is_none_or(|e| e != "rs") || from == "lib" {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(&path).expect("readable"));
        for to in named_modules(&code).into_iter().filter(|to| *to != from && modules.contains(to)) {
            edges.entry((from.clone(), to)).or_default().insert(relative.clone());
        }
    }
    edges
}

/// The imports that close a cycle: those whose target reaches back to their source.
fn cycles(edges: &BTreeMap<(String, String), BTreeSet<String>>) -> Vec<(String, String)> {
    let reaches = |from: &str, to: &str| {
        let (mut seen, mut next) = (BTreeSet::new(), vec![from.to_owned()]);
        while let Some(m) = next.pop() {
            if m == to {
                return true;
            }
            if seen.insert(m.clone()) {
                next.extend(edges.keys().filter(|(a, _)| *a == m).map(|(_, b)| b.clone()));
            }
        }
        false
    };
    edges.keys().filter(|(a, b)| reaches(b, a)).cloned().collect()
}

#[test]
fn every_app_module_imports_only_its_own_layer_or_lower_and_closes_no_cycle() {
    let src = app_src();
    let readme = std::fs::read_to_string(src.join("../README.md")).expect("crates/app/README.md");
    let layer_of = layers(&readme);
    let modules = modules(&src);
    let unplaced: Vec<&String> = modules.iter().filter(|m| !layer_of.contains_key(*m)).collect();
    assert!(unplaced.is_empty(), "crates/app/README.md places no layer for {unplaced:?}");
    let gone: Vec<&String> = layer_of.keys().filter(|m| !modules.contains(*m)).collect();
    assert!(gone.is_empty(), "crates/app/README.md places modules that are not there: {gone:?}");

    let edges = imports(&src, &modules);
    assert!(edges.len() > 50, "too few imports found to be a check: {edges:?}");
    let upward: Vec<String> = edges
        .iter()
        .filter(|((a, b), _)| layer_of[a] < layer_of[b])
        .map(|((a, b), files)| format!("{a} (layer {}) -> {b} (layer {}) in {files:?}", layer_of[a], layer_of[b]))
        .collect();
    assert!(upward.is_empty(), "imports that point up a layer:\n{}", upward.join("\n"));
    let cyclic: Vec<String> =
        cycles(&edges).iter().map(|(a, b)| format!("{a} -> {b} in {:?}", edges[&(a.clone(), b.clone())])).collect();
    assert!(cyclic.is_empty(), "imports in a cycle:\n{}", cyclic.join("\n"));
}

#[test]
fn imports_are_read_from_paths_and_use_trees_but_not_from_comments_or_unit_tests() {
    let source = "use crate::error::AppResult;\nuse crate::{payments::{Payments, Gateways}, views};\n// crate::cabinet is named in a comment\nfn f() { crate::clients::load(); }\n#[cfg(test)]\nmod tests { use crate::operator::demo; }\n";
    let named = named_modules(&code_of(source));
    assert_eq!(named.into_iter().collect::<Vec<_>>(), ["clients", "error", "payments", "views"]);
}

#[test]
fn a_cycle_is_found_through_any_number_of_modules() {
    let edge = |a: &str, b: &str| ((a.to_owned(), b.to_owned()), BTreeSet::new());
    let edges: BTreeMap<_, _> = [edge("a", "b"), edge("b", "c"), edge("c", "a"), edge("c", "d")].into_iter().collect();
    let found = cycles(&edges);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(!found.contains(&("c".to_owned(), "d".to_owned())));
}

#[test]
fn the_layers_are_read_from_the_readme_table() {
    let readme =
        "# x\n## Layers\n\n| layer | modules |\n| - | - |\n| 1 shared | `error`, `views` |\n| 2 areas | `payments` |\n";
    let layer_of = layers(readme);
    assert_eq!(layer_of["error"], 1);
    assert_eq!(layer_of["payments"], 2);
    assert_eq!(layer_of.len(), 3);
}
