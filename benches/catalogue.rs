//! Catalogue speed: the action picker searches on every keystroke, and the catalogue is parsed and
//! validated at every start. Targets: a query over the whole catalogue <= 100 µs, a load <= 5 ms.

use divan::{Bencher, black_box};
use srtrack::catalogue::{Catalogue, EMBEDDED_ACTIONS, EMBEDDED_LABEL};
use srtrack::rules::HouseRules;

fn main() {
    divan::main();
}

/// One fuzzy query over all 96 actions: plain prefixes, several words, and typos that need the
/// edit-distance fallback.
#[divan::bench(args = ["fire", "dodg", "full defnse", "frie gun", "matrix serch"])]
fn fuzzy_query(bencher: Bencher, query: &str) {
    let rules = HouseRules::embedded();
    let Ok(catalogue) = Catalogue::embedded(&rules) else {
        panic!("the embedded catalogue is valid");
    };
    bencher.bench_local(|| catalogue.search(black_box(query), None));
}

/// Parsing the embedded RON and validating every entry against the house rules.
#[divan::bench]
fn load_and_validate_embedded(bencher: Bencher) {
    let rules = HouseRules::embedded();
    bencher.bench_local(|| Catalogue::parse(black_box(EMBEDDED_ACTIONS), EMBEDDED_LABEL, &rules));
}
