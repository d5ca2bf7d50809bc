//! The scale comparison's report: both databases side by side, and the targets.

use std::time::Duration;

use super::{Compared, Measured};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The middle value (the mean of the middle two of an even count); 0 for none.
fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Prints both databases side by side with the targets; false when a request failed. A
/// request step shows each database's median rate and the median of its rounds' ratios.
pub fn print(compared: &[Compared], fresh: &Measured, grown: &Measured, due: &[usize; 2]) -> bool {
    println!(
        "\nScale: PostgreSQL with {} customers against {} (same run, same machine)",
        grown.customers, fresh.customers
    );
    println!("  {:<44} {:>14} {:>14} {:>7}", "", fresh.customers, grown.customers, "ratio");
    let mut checks: Vec<(String, bool)> = vec![];
    for step in compared {
        let ratios: Vec<f64> = step.small.iter().zip(&step.big).map(|(a, b)| b / a.max(0.001)).collect();
        let ratio = median(&ratios);
        let each = ratios.iter().map(|r| format!("{:.0}", r * 100.0)).collect::<Vec<_>>().join(", ");
        println!(
            "  {:<44} {:>14.0} {:>14.0} {:>6.0}%  (rounds: {each} %)",
            step.name,
            median(&step.small),
            median(&step.big),
            ratio * 100.0
        );
        let over = match ratios.len() {
            1 => "in one round".to_owned(),
            n => format!("the median of {n} rounds"),
        };
        if step.ratio_target {
            checks.push((
                format!("scale: {} = {:.0}% of the small database's, {over} (target >= 90%)", step.name, ratio * 100.0),
                ratio >= 0.9,
            ));
        } else if let Some(p99) = step.big_p99.iter().copied().max() {
            println!(
                "  {:<44} p99 {:.1} ms one request at a time, the slowest of its rounds (over every account: no ratio target)",
                "",
                ms(p99)
            );
        }
        if let Some(target) = step.p99_target {
            let p99 = step.big_p99.iter().copied().max().unwrap_or_default();
            checks.push((
                format!(
                    "scale: {} at {} customers, one request at a time: p99 {:.1} ms, the slowest of its rounds (target <= {:.0} ms)",
                    step.name,
                    grown.customers,
                    ms(p99),
                    ms(target)
                ),
                p99 <= target,
            ));
        }
    }
    for (name, a, b) in [
        ("event lag p50, ms", fresh.event_lag_p50, grown.event_lag_p50),
        ("event lag p99, ms", fresh.event_lag_p99, grown.event_lag_p99),
    ] {
        println!("  {name:<44} {:>14.0} {:>14.0}", ms(a), ms(b));
    }
    println!("  {:<44} {:>14.0} {:>14.0}", "vp-api jobs, nothing due, ms", ms(fresh.jobs_idle), ms(grown.jobs_idle));
    for ((n, a), (_, b)) in fresh.jobs_due.iter().zip(&grown.jobs_due) {
        println!("  {:<44} {:>14.0} {:>14.0}", format!("vp-api jobs, {n} due, ms"), ms(*a), ms(*b));
    }
    println!(
        "  {:<44} {:>14.0} {:>14.0}",
        "database bytes per customer", fresh.bytes_per_customer, grown.bytes_per_customer
    );
    println!("  {:<44} {:>14.1} {:>14.1}", "seeding, s", fresh.seeding.as_secs_f64(), grown.seeding.as_secs_f64());
    println!(
        "  {:<44} {:>14.1} {:>14.1}",
        "sales rebuild of the busy account's year, s",
        fresh.rebuild_year.as_secs_f64(),
        grown.rebuild_year.as_secs_f64()
    );
    let export_rate = |m: &Measured| m.export_rows as f64 / m.export_time.as_secs_f64().max(0.001);
    println!(
        "  {:<44} {:>14.0} {:>14.0}",
        format!("export of a year ({} invoices), rows/s", grown.export_rows),
        export_rate(fresh),
        export_rate(grown)
    );
    checks.push((
        format!(
            "scale: a year of the busy account's invoices ({} rows) exports at {:.0} rows/s at {} customers (target > {:.0})",
            grown.export_rows,
            export_rate(grown),
            grown.customers,
            super::EXPORT_ROWS_PER_SECOND
        ),
        export_rate(grown) > super::EXPORT_ROWS_PER_SECOND,
    ));
    // The term check's own work: the run with each count due less the run with none.
    if let [(_, small), (_, big)] = grown.jobs_due[..] {
        let work = |d: Duration| d.saturating_sub(grown.jobs_idle).as_secs_f64().max(0.001);
        let growth = work(big) / work(small);
        let expected = due[1] as f64 / due[0] as f64;
        checks.push((
            format!(
                "scale: the term check's work grows {growth:.1}x from {} to {} due (target: about {expected:.0}x, with what is due)",
                due[0], due[1]
            ),
            growth <= expected * 1.5,
        ));
    }
    let idle = grown.jobs_idle.as_secs_f64() / fresh.jobs_idle.as_secs_f64().max(0.001);
    checks.push((
        format!(
            "scale: vp-api jobs with nothing due = {:.0} ms, {:.0}% of the small database's (target: no growth with size, <= 150%)",
            ms(grown.jobs_idle),
            idle * 100.0
        ),
        idle <= 1.5,
    ));
    for (step, table, rows) in &grown.scans {
        checks.push((
            format!("scale: during {step}, {rows} rows of {table} were read by sequential scan (target: none)"),
            false,
        ));
    }
    if grown.scans.is_empty() {
        checks.push(("scale: no step read a big table by sequential scan".into(), true));
    }
    println!("\nTargets (ratios in this run)");
    for (text, ok) in &checks {
        println!("  [{}] {text}", if *ok { "met" } else { "MISSED" });
    }
    let errors = fresh.errors + grown.errors;
    if errors > 0 {
        eprintln!("{errors} requests failed during the measured steps");
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn the_median_is_the_middle_rate_whatever_the_order() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[7.0]), 7.0);
        assert_eq!(median(&[]), 0.0);
    }
}
