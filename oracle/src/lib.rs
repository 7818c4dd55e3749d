//! oracle: the differential-testing and fuzzing harness of phicc
//! (docs/architecture.md#the-harness): program generators, the in-process IR check, the runner
//! that contains test binaries, the differential oracle over targets and
//! configurations, campaigns with their findings and reports, reducers, and
//! the native check of the backends against the interpreter, and the C
//! program generator `cgen` with its in-process C check.

pub mod benchcode;
pub mod bisect;
pub mod campaign;
pub mod ccheck;
pub mod cgen;
pub mod commands;
pub mod compile_worker;
pub mod differential;
pub mod findings;
pub mod generator;
pub mod inputs;
pub mod ircampaign;
pub mod ircheck;
pub mod irgen;
pub mod link;
pub mod localize;
pub mod native_ir;
pub mod realprogs;
pub mod reduce_ir;
pub mod report;
pub mod runner;
pub mod shapes;
pub mod sweep;
pub mod target;
pub mod toolchain;
pub mod torture;
pub mod util;

pub use phicc;
