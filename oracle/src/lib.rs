//! oracle: the differential-testing and fuzzing harness of phicc: program
//! generators (IR and C), the in-process IR check, IR campaigns and
//! the IR reducer (design.md, "The harness").

pub mod ccheck;
pub mod cgen;
pub mod ircampaign;
pub mod ircheck;
pub mod irgen;
pub mod reduce_ir;

pub use phicc;
