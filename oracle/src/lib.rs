//! oracle: the differential-testing and fuzzing harness of phicc: program
//! generators (IR today; C later), the in-process IR check, campaigns,
//! findings and reducers (design.md, "The harness").

pub mod irgen;

pub use phicc;
