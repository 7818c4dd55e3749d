//! A parallel map over seeds with a progress bar, for the subcommands that
//! check a fixed list of programs one by one (`oracle csmith-run-ir`,
//! `oracle cgen-validity`, `oracle first-findings`, ...): worker threads
//! take seeds from a shared counter (as campaigns do) and the results come
//! back in seed order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// `f(seed)` for every seed on `jobs` threads, in the order of `seeds`; the
/// bar (on stderr, hidden when it is not a terminal or `quiet`) shows `what`.
pub fn map<T: Send, F: Fn(u64) -> T + Sync>(seeds: &[u64], jobs: usize, what: &str, quiet: bool, f: F) -> Vec<T> {
    let bar = progress_bar(seeds.len() as u64, what, quiet);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..seeds.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&seed) = seeds.get(i) else { break };
                let r = f(seed);
                results.lock().unwrap()[i] = Some(r);
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    results.into_inner().unwrap().into_iter().flatten().collect()
}

/// A bar of `len` steps labelled `what` (hidden when `quiet`).
pub fn progress_bar(len: u64, what: &str, quiet: bool) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new(len);
    b.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:25}}] {{pos}}/{{len}} {what} ({{per_sec}}) {{msg}}"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    b.enable_steady_tick(Duration::from_millis(500));
    b
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_come_back_in_seed_order() {
        let seeds: Vec<u64> = (1..=50).rev().collect();
        let out = super::map(&seeds, 4, "seeds", true, |s| s * 2);
        assert_eq!(out, seeds.iter().map(|s| s * 2).collect::<Vec<_>>());
    }
}
