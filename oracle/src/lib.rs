//! oracle: the differential-testing and fuzzing harness of phicc. It will hold
//! the program generators (IR and C), the runners, the differential check,
//! campaigns, findings and reducers (design.md, "The harness").

pub use phicc;
