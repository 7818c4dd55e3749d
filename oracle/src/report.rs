//! The human-readable reports of a campaign directory, rebuilt from its
//! journals (`done.jsonl`, `findings.jsonl`) so they always cover every run,
//! resumed or merged: `summary.md` (totals, rate, where the time goes,
//! findings grouped by bucket with their reproduce commands) and
//! `report.html` (the same plus an inline SVG chart of outcome classes over
//! the campaign; no scripts, no network).

use crate::differential::{Class, Timings};
use crate::findings::{load_done, load_findings, DoneRecord, FindingRecord};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Colours of the classes in the chart.
fn colour(c: Class) -> &'static str {
    match c {
        Class::Agree => "#9bc59d",
        Class::Mismatch => "#d7263d",
        Class::CompilerCrash => "#7b2d8b",
        Class::CompilerError => "#f49d37",
        Class::Timeout => "#3f88c5",
        Class::AllTimeout => "#b8c4d6",
        Class::ReferenceFailure => "#cccccc",
    }
}

/// Everything the reports say.
pub struct Totals {
    pub programs: usize,
    pub per_class: BTreeMap<Class, usize>,
    pub timings: Timings,
    pub busy_seconds: f64,
    pub findings: Vec<FindingRecord>,
    pub buckets: BTreeMap<String, Vec<FindingRecord>>,
    /// Programs per `cgen` preset.
    pub per_emphasis: BTreeMap<String, usize>,
    /// Programs whose mem2reg run crossed the phi copy-cost limit, and
    /// programs for which that is known.
    pub crossed_cost_limit: usize,
    pub cost_limit_known: usize,
}

pub fn totals(dir: &Path) -> std::io::Result<(Totals, Vec<DoneRecord>)> {
    let done = load_done(dir)?;
    let findings = load_findings(dir)?;
    let mut per_class = BTreeMap::new();
    let mut timings = Timings::default();
    let mut busy = 0.0;
    let mut per_emphasis = BTreeMap::new();
    let (mut crossed_cost_limit, mut cost_limit_known) = (0, 0);
    for d in &done {
        *per_class.entry(d.class).or_insert(0) += 1;
        if let Some(e) = &d.emphasis {
            *per_emphasis.entry(e.clone()).or_insert(0) += 1;
        }
        if let Some(crossed) = d.crossed_cost_limit {
            cost_limit_known += 1;
            crossed_cost_limit += crossed as usize;
        }
        timings.add(&d.timings);
        busy += d.seconds;
    }
    let mut buckets: BTreeMap<String, Vec<FindingRecord>> = BTreeMap::new();
    for f in &findings {
        buckets.entry(f.bucket()).or_default().push(f.clone());
    }
    Ok((
        Totals {
            programs: done.len(),
            per_class,
            timings,
            busy_seconds: busy,
            findings,
            buckets,
            per_emphasis,
            crossed_cost_limit,
            cost_limit_known,
        },
        done,
    ))
}

/// Write `summary.md` and `report.html` into `dir`.
pub fn write_reports(dir: &Path) -> std::io::Result<()> {
    let (t, mut done) = totals(dir)?;
    let spec = std::fs::read_to_string(dir.join("campaign.json")).unwrap_or_default();
    let md = summary_markdown(&t, &spec);
    crate::util::write_atomic(&dir.join("summary.md"), md.as_bytes())?;
    done.sort_by_key(|d| d.index);
    let html = format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>oracle campaign report</title>\n\
         <style>body{{font-family:sans-serif;max-width:70em;margin:2em auto}}pre{{background:#f4f4f4;padding:1em;overflow-x:auto}}</style>\n\
         </head><body>\n<h1>Campaign report</h1>\n<h2>Outcomes over the campaign</h2>\n{}\n<pre>{}</pre>\n</body></html>\n",
        chart_svg(&done),
        escape(&md)
    );
    crate::util::write_atomic(&dir.join("report.html"), html.as_bytes())
}

/// The Markdown summary.
pub fn summary_markdown(t: &Totals, spec_json: &str) -> String {
    let mut s = String::from("# Campaign summary\n\n");
    if !spec_json.is_empty() {
        let _ = writeln!(
            s,
            "Campaign: `{}`\n",
            spec_json.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }
    let per_min = if t.busy_seconds > 0.0 {
        t.programs as f64 * 60.0 / t.busy_seconds
    } else {
        0.0
    };
    let _ = writeln!(
        s,
        "Programs: {}; findings: {} in {} bucket(s); {:.1} programs per busy worker-minute.\n",
        t.programs,
        t.findings.len(),
        t.buckets.len(),
        per_min
    );
    s.push_str("| outcome | programs | share |\n|---|---:|---:|\n");
    for c in Class::ALL {
        let n = t.per_class.get(&c).copied().unwrap_or(0);
        let share = if t.programs > 0 {
            100.0 * n as f64 / t.programs as f64
        } else {
            0.0
        };
        let _ = writeln!(s, "| {} | {n} | {share:.1}% |", c.name());
    }
    if t.cost_limit_known > 0 {
        let _ = writeln!(
            s,
            "\nCrossed mem2reg's phi copy-cost limit (allocas kept in memory): {} of {} programs.",
            t.crossed_cost_limit, t.cost_limit_known
        );
    }
    if !t.per_emphasis.is_empty() {
        s.push_str("\n| cgen emphasis | programs |\n|---|---:|\n");
        for (e, n) in &t.per_emphasis {
            let _ = writeln!(s, "| {e} | {n} |");
        }
    }
    let tt = &t.timings;
    let total = tt.generate + tt.compile + tt.link + tt.run + tt.reference;
    s.push_str(
        "\nWhere the time goes (worker-seconds, all programs):\n\n| phase | seconds | share |\n|---|---:|---:|\n",
    );
    for (name, v) in [
        ("generate the program", tt.generate),
        ("compile (phicc)", tt.compile),
        ("assemble and link", tt.link),
        ("run (native / QEMU)", tt.run),
        ("reference (gcc -O0 build and run)", tt.reference),
    ] {
        let share = if total > 0.0 { 100.0 * v / total } else { 0.0 };
        let _ = writeln!(s, "| {name} | {v:.1} | {share:.1}% |");
    }
    if tt.references_cached > 0 {
        let _ = writeln!(
            s,
            "\n{} reference(s) came from the reference cache (not built or run).",
            tt.references_cached
        );
    }
    if !t.buckets.is_empty() {
        s.push_str("\n## Findings by bucket\n\nBucket = class | first diverging stage | configurations | targets.\n");
        for (bucket, fs) in &t.buckets {
            let _ = writeln!(s, "\n### {bucket}\n\n{} finding(s), e.g. `{}`:", fs.len(), fs[0].dir);
            let _ = writeln!(
                s,
                "`sh {}/commands.sh`; reduce with `oracle reduce {}`\n",
                fs[0].dir, fs[0].dir
            );
            for f in fs.iter().take(20) {
                let _ = writeln!(s, "- `{}` (index {}): {}", f.id, f.index, f.cells.join(", "));
            }
            if fs.len() > 20 {
                let _ = writeln!(s, "- ... and {} more", fs.len() - 20);
            }
        }
    }
    s
}

/// A stacked bar chart: the programs in index order, in up to 60 bins, each
/// bar split by outcome class.
pub fn chart_svg(done: &[DoneRecord]) -> String {
    let (w, h, left, bottom) = (900.0, 260.0, 40.0, 30.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{}\" role=\"img\">\n",
        h + 40.0
    );
    if done.is_empty() {
        s.push_str("<text x=\"10\" y=\"20\">no programs yet</text></svg>");
        return s;
    }
    let bins = done.len().min(60);
    let per_bin = done.len().div_ceil(bins);
    let bins = done.len().div_ceil(per_bin);
    let bar_w = (w - left) / bins as f64;
    let plot_h = h - bottom;
    for b in 0..bins {
        let chunk = &done[b * per_bin..((b + 1) * per_bin).min(done.len())];
        let mut y = plot_h;
        for c in Class::ALL {
            let n = chunk.iter().filter(|d| d.class == c).count();
            if n == 0 {
                continue;
            }
            let bh = plot_h * n as f64 / per_bin as f64;
            y -= bh;
            let _ = writeln!(
                s,
                "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"{}\"><title>programs {}..{}: {} {}</title></rect>",
                left + b as f64 * bar_w,
                (bar_w - 1.0).max(0.5),
                colour(c),
                chunk[0].index,
                chunk[chunk.len() - 1].index,
                n,
                c.name()
            );
        }
    }
    let _ = writeln!(
        s,
        "<text x=\"{left}\" y=\"{}\" font-size=\"12\">program index {} .. {} ({} per bar)</text>",
        plot_h + 18.0,
        done[0].index,
        done[done.len() - 1].index,
        per_bin
    );
    let _ = writeln!(s, "<text x=\"0\" y=\"12\" font-size=\"12\">100%</text>");
    let mut x = left;
    for c in Class::ALL {
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"12\">{}</text>",
            h + 10.0,
            colour(c),
            x + 16.0,
            h + 20.0,
            c.name()
        );
        x += 20.0 + 8.0 * c.name().len() as f64;
    }
    s.push_str("</svg>");
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
