//! oracle: the differential-testing and fuzzing harness of phicc: program
//! generators (IR today; C later), the in-process IR check, IR campaigns and
//! the IR reducer, and the native check of the backend against the
//! interpreter (design.md, "The harness").

pub mod ircampaign;
pub mod ircheck;
pub mod irgen;
pub mod native_ir;
pub mod reduce_ir;

pub use phicc;
