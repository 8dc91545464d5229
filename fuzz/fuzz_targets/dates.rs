//! Every date parser of the listings on any string: a date or nothing.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    for date in paperscout_fuzz::listing::fuzzing::dates(&s).into_iter().flatten() {
        paperscout_fuzz::check_date(&date);
    }
});
