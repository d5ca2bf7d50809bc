//! One language's Fluent bundle, built once from the file compiled into the binary.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use vp_domain::{Lang, Money};

use crate::Arg;
use crate::format;

pub fn source(lang: Lang) -> &'static str {
    match lang {
        Lang::En => include_str!("../locales/en.ftl"),
        Lang::Ru => include_str!("../locales/ru.ftl"),
    }
}

pub struct Catalogue {
    bundle: FluentBundle<FluentResource>,
}

impl Catalogue {
    /// The catalogues are part of the binary and checked by tests, so a broken one is a bug
    /// found before release, not an input: it stops the process at its first text.
    pub fn load(lang: Lang) -> Catalogue {
        let resource = FluentResource::try_new(source(lang).to_owned())
            .unwrap_or_else(|(_, errors)| panic!("the {} catalogue does not parse: {errors:?}", lang.code()));
        let id = lang.code().parse().unwrap_or_default();
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        // Isolation marks (U+2068/U+2069) only help mixed-direction scripts; ours are not.
        bundle.set_use_isolating(false);
        bundle.add_resource(resource).unwrap_or_else(|e| panic!("the {} catalogue repeats keys: {e:?}", lang.code()));
        add_functions(&mut bundle, lang).unwrap_or_else(|e| panic!("cannot add the catalogue functions: {e:?}"));
        Catalogue { bundle }
    }

    pub fn format(&self, key: &str, args: &[(&str, Arg<'_>)]) -> String {
        let Some(pattern) = self.bundle.get_message(key).and_then(|m| m.value()) else {
            return key.to_owned();
        };
        let mut fluent_args = FluentArgs::with_capacity(args.len());
        for (name, arg) in args {
            let value = match *arg {
                Arg::Text(t) => FluentValue::from(t),
                Arg::Count(n) => FluentValue::from(n),
                // Exact decimal text; MONEY and DATE write it in the catalogue's language.
                Arg::Money(m) => FluentValue::from(m.to_string()),
                Arg::Date(d) => FluentValue::from(format::iso_date(d)),
            };
            fluent_args.set(*name, value);
        }
        let mut errors = Vec::new();
        self.bundle.format_pattern(pattern, Some(&fluent_args), &mut errors).into_owned()
    }
}

/// `MONEY($amount)` and `DATE($day)`: the argument arrives as exact text (`5988.00`,
/// `2026-03-07`) and leaves written the way the catalogue's language writes it.
fn add_functions(bundle: &mut FluentBundle<FluentResource>, lang: Lang) -> Result<(), fluent_bundle::FluentError> {
    bundle.add_function("MONEY", move |positional, _| match positional.first() {
        Some(FluentValue::String(exact)) => match exact.parse::<Money>() {
            Ok(m) => FluentValue::from(format::money(lang, m)),
            Err(_) => FluentValue::Error,
        },
        _ => FluentValue::Error,
    })?;
    bundle.add_function("DATE", move |positional, _| match positional.first() {
        Some(FluentValue::String(iso)) => match format::parse_iso_date(iso) {
            Some(day) => FluentValue::from(format::date(lang, day)),
            None => FluentValue::Error,
        },
        _ => FluentValue::Error,
    })
}
