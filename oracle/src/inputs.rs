//! Many inputs per function (issue 17 item 5): which functions of a module
//! the IR check calls besides `main`, and with which argument vectors.
//!
//! A function is called when the interpreter can call it directly
//! (`phicc::ir::interp::scalar_params`: defined, not variadic, every
//! parameter an integer or a float). Its vectors are built per parameter from
//! a *domain*:
//!
//! - the boundary values of the parameter's type: 0, 1, -1, MIN and MAX, and
//!   the powers of two 2^k and 2^k ± 1 for a spread of k (floats: ±0, ±1,
//!   ±0.5, ±2, the largest and smallest normal and subnormal values, ±inf, a
//!   NaN, and the integer-conversion edges 2^31, 2^32, 2^63, 2^64);
//! - for a recursion depth (irgen puts an `i32` depth first in a function
//!   that calls itself, which its callers pass 0 to 3: `irgen/callgraph.rs`),
//!   only 0 to 3, so that calls recurse as the generated callers make them
//!   recurse instead of running out of fuel or stack.
//!
//! When the domains' sizes multiply to at most 2^[`Inputs::exhaustive_bits`]
//! (a 16-bit budget takes one `i16`, two `i8`s, or a depth and an `i8`...)
//! every input is tried: an exhaustive small-scope check (Jackson's small
//! scope hypothesis, "Software Abstractions", 2006: most bugs show on some
//! small input, so try them all). Otherwise the vectors are, most telling
//! first: all zeros; the core boundary values (0, 1, -1, MIN, MAX, MIN + 1,
//! MAX - 1) of all parameters in step (all MIN, all MAX, ...), then of each
//! parameter alone with the others 0; [`Inputs::random`] vectors drawn from
//! a splitmix64 stream keyed by [`Inputs::seed`] and the function's name
//! (half boundary values, half raw bits), so that a campaign input always
//! gets the same vectors; then the other boundary values alone and in step.
//! [`Inputs::max_vectors`] keeps the first so many (the fuzz targets' bound).
//!
//! The check assumes that a pass keeps every function's meaning for every
//! argument, not only for those its callers pass: true of phicc's passes,
//! which are intraprocedural but for the inliner (which keeps the callee).
//! An interprocedural specialisation (IPSCCP of a `static` function) would
//! need its functions left out.

use phicc::ir::instruction::Instruction;
use phicc::ir::module::{IrFunction, IrModule};
use phicc::ir::types::IrType;
use std::fmt;

/// Which functions the check calls, and with how many inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inputs {
    /// Call every callable function, not only `main`.
    pub every_function: bool,
    /// Seeds the random vectors (a campaign: a hash of the input's bytes).
    pub seed: u64,
    /// Random vectors per function (besides the boundary ones).
    pub random: usize,
    /// Try every input of a function whose domains multiply to at most
    /// 2^this (0: never).
    pub exhaustive_bits: u32,
    /// At most this many vectors per function when not every input is
    /// tried (0: no cap); the most telling come first.
    pub max_vectors: usize,
}

impl Inputs {
    /// Only `main`, as before issue 17.
    pub const OFF: Inputs = Inputs {
        every_function: false,
        seed: 0,
        random: 0,
        exhaustive_bits: 0,
        max_vectors: 0,
    };

    /// `oracle ir-campaign`'s default: every function, every boundary
    /// vector, every input up to 8 bits (16 bits take 12 times as long:
    /// docs/results.md#many-inputs-per-function).
    pub const CAMPAIGN: Inputs = Inputs {
        every_function: true,
        seed: 0,
        random: 8,
        exhaustive_bits: 8,
        max_vectors: 0,
    };

    /// The cargo-fuzz targets, bounded for speed: every function, at most
    /// 16 vectors each, no exhaustive walk but of parameterless functions.
    pub const FUZZ: Inputs = Inputs {
        every_function: true,
        seed: 0,
        random: 4,
        exhaustive_bits: 0,
        max_vectors: 16,
    };

    /// The same settings with the random vectors keyed by `bytes` (FNV-1a).
    pub fn seeded_by(self, bytes: &[u8]) -> Inputs {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        Inputs { seed: h, ..self }
    }
}

impl Default for Inputs {
    fn default() -> Self {
        Inputs::OFF
    }
}

/// One call the check makes: a function and its arguments' bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub function: String,
    pub args: Vec<u128>,
    pub types: Vec<IrType>,
}

impl Call {
    /// `main()`, which the check always runs.
    pub fn main() -> Call {
        Call {
            function: "main".into(),
            args: Vec::new(),
            types: Vec::new(),
        }
    }

    pub fn is_main(&self) -> bool {
        self.function == "main" && self.args.is_empty()
    }

    /// Argument `i` as phiopt's `--args` reads it (a signed decimal whose
    /// low bits are the argument's; floats as their bit pattern).
    fn arg_text(&self, i: usize) -> String {
        let bits = self.types[i].bits().max(1);
        phicc::ir::constants::sext(self.args[i], bits).to_string()
    }

    /// The flags that make `phiopt --check` run this call (empty for `main()`).
    pub fn phiopt_flags(&self) -> String {
        if self.is_main() {
            return String::new();
        }
        let args: Vec<String> = (0..self.args.len()).map(|i| self.arg_text(i)).collect();
        if args.is_empty() {
            format!(" --entry={}", self.function)
        } else {
            format!(" --entry={} --args={}", self.function, args.join(","))
        }
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: Vec<String> = (0..self.args.len())
            .map(|i| match self.types[i] {
                IrType::F32 => format!("{:?}", f32::from_bits(self.args[i] as u32)),
                IrType::F64 | IrType::F128 => format!("{:?}", f64::from_bits(self.args[i] as u64)),
                t if t.is_unsigned() => self.args[i].to_string(),
                _ => self.arg_text(i),
            })
            .collect();
        write!(f, "@{}({})", self.function, shown.join(", "))
    }
}

/// The values one parameter ranges over.
#[derive(Clone, Debug)]
enum Domain {
    /// A recursion depth: 0 to 3.
    Depth,
    Type(IrType),
}

impl Domain {
    /// How many values it has (saturating; floats count as 2^bits).
    fn size(&self) -> u128 {
        match self {
            Domain::Depth => 4,
            Domain::Type(t) if t.bits() >= 128 => u128::MAX,
            Domain::Type(t) => 1u128 << t.bits(),
        }
    }

    fn boundary(&self) -> Vec<u128> {
        match self {
            Domain::Depth => vec![0, 1, 2, 3],
            Domain::Type(t) => boundary_values(*t),
        }
    }

    fn random(&self, r: u64) -> u128 {
        match self {
            Domain::Depth => (r % 4) as u128,
            Domain::Type(t) => phicc::ir::constants::zext(r as u128 | (r as u128) << 64, t.bits()),
        }
    }
}

/// Exponents of the powers of two near which integer parameters are tried.
const POWERS: &[u32] = &[1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 32, 62, 63, 127];

/// The boundary values of `ty` as canonical bits, without duplicates.
pub fn boundary_values(ty: IrType) -> Vec<u128> {
    let mut out: Vec<u128> = Vec::new();
    let mut push = |v: u128| {
        if !out.contains(&v) {
            out.push(v);
        }
    };
    match ty {
        IrType::F32 => {
            for x in [
                0.0f32,
                -0.0,
                1.0,
                -1.0,
                0.5,
                -0.5,
                2.0,
                -2.0,
                f32::MAX,
                f32::MIN,
                f32::MIN_POSITIVE,
                f32::from_bits(1),
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NAN,
                2147483648.0,
                -2147483648.0,
                4294967296.0,
                2.0f32.powi(63),
                2.0f32.powi(64),
            ] {
                push(x.to_bits() as u128);
            }
        }
        IrType::F64 | IrType::F128 => {
            for x in [
                0.0f64,
                -0.0,
                1.0,
                -1.0,
                0.5,
                -0.5,
                2.0,
                -2.0,
                f64::MAX,
                f64::MIN,
                f64::MIN_POSITIVE,
                f64::from_bits(1),
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
                2147483648.0,
                -2147483648.0,
                4294967296.0,
                2.0f64.powi(63),
                2.0f64.powi(64),
            ] {
                push(x.to_bits() as u128);
            }
        }
        t => {
            let w = t.bits();
            let canon = |v: i128| phicc::ir::constants::zext(v as u128, w);
            let min = if w >= 128 { i128::MIN } else { -(1i128 << (w - 1)) };
            let max = !min;
            for v in [0, 1, -1, min, max, min + 1, max - 1] {
                push(canon(v));
            }
            for &k in POWERS.iter().filter(|&&k| k < w - 1) {
                let p = 1i128 << k;
                for v in [p - 1, p, p + 1, -p] {
                    push(canon(v));
                }
            }
        }
    }
    out
}

/// Does `f` call itself directly (irgen's recursive shape)?
fn is_self_recursive(f: &IrFunction) -> bool {
    f.blocks.iter().any(|b| {
        b.instructions
            .iter()
            .any(|i| matches!(i, Instruction::Call { func, .. } if *func == f.name))
    })
}

/// The splitmix64 finalizer.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The argument vectors for `f` (whose scalar parameter types are `types`),
/// and whether they are every input of its domains.
pub fn argument_vectors(f: &IrFunction, types: &[IrType], inputs: &Inputs) -> (Vec<Vec<u128>>, bool) {
    let depth_first = is_self_recursive(f) && types.first() == Some(&IrType::I32);
    let domains: Vec<Domain> = types
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            if i == 0 && depth_first {
                Domain::Depth
            } else {
                Domain::Type(t)
            }
        })
        .collect();
    // Exhaustive: a mixed-radix count over the domains.
    let total = domains.iter().try_fold(1u128, |acc, d| acc.checked_mul(d.size()));
    if inputs.exhaustive_bits > 0 {
        if let Some(total) = total.filter(|&n| n <= 1u128 << inputs.exhaustive_bits.min(64)) {
            let all = (0..total)
                .map(|mut i| {
                    domains
                        .iter()
                        .map(|d| {
                            let n = d.size();
                            let v = i % n;
                            i /= n;
                            v
                        })
                        .collect()
                })
                .collect();
            return (all, true);
        }
    }
    let lists: Vec<Vec<u128>> = domains.iter().map(Domain::boundary).collect();
    // The most telling vectors first, so that a cap keeps them: all zeros;
    // the first CORE boundary values (0, 1, -1, MIN, MAX, MIN + 1, MAX - 1)
    // of all parameters in step, then of each parameter alone; the random
    // vectors; the other boundary values alone, then in step.
    const CORE: usize = 7;
    let mut out = Vectors {
        list: Vec::new(),
        cap: if inputs.max_vectors > 0 {
            inputs.max_vectors
        } else {
            usize::MAX
        },
    };
    let zeros = vec![0u128; types.len()];
    out.push(zeros.clone());
    let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
    let in_step = |k: usize| -> Vec<u128> { lists.iter().map(|l| l[k % l.len()]).collect() };
    let alone = |i: usize, v: u128| {
        let mut vec = zeros.clone();
        vec[i] = v;
        vec
    };
    for k in 0..longest.min(CORE) {
        out.push(in_step(k));
    }
    for (i, list) in lists.iter().enumerate() {
        for &v in list.iter().take(CORE) {
            out.push(alone(i, v));
        }
    }
    let mut state = inputs.seed ^ f.name.bytes().fold(0x243f_6a88_85a3_08d3u64, |h, b| mix(h ^ b as u64));
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(state)
    };
    for _ in 0..inputs.random {
        if out.full() {
            break;
        }
        let v = domains
            .iter()
            .zip(&lists)
            .map(|(d, l)| {
                let r = next();
                if r & 1 == 0 {
                    l[(r >> 1) as usize % l.len()]
                } else {
                    d.random(next())
                }
            })
            .collect();
        out.push(v);
    }
    for (i, list) in lists.iter().enumerate() {
        for &v in list.iter().skip(CORE) {
            if out.full() {
                return (out.list, false);
            }
            out.push(alone(i, v));
        }
    }
    for k in CORE..longest {
        if out.full() {
            break;
        }
        out.push(in_step(k));
    }
    (out.list, false)
}

/// Argument vectors in order without duplicates, up to a cap. The vectors
/// after the cap would be dropped, so none is built or compared once it is
/// reached (the fuzz targets' 16 of some hundred boundary vectors; comparing
/// each new vector with all before it was quadratic in the hundreds).
struct Vectors {
    list: Vec<Vec<u128>>,
    cap: usize,
}

impl Vectors {
    fn full(&self) -> bool {
        self.list.len() >= self.cap
    }

    fn push(&mut self, v: Vec<u128>) {
        if !self.full() && !self.list.contains(&v) {
            self.list.push(v);
        }
    }
}

/// Functions that may execute inline asm, directly or through direct calls
/// (every function when the module calls through a pointer): only their runs
/// depend on the asm schedule, so the others are called under one schedule.
pub fn may_run_asm(module: &IrModule) -> Vec<bool> {
    let index = |name: &str| {
        module
            .functions
            .iter()
            .position(|g| g.name == name && !g.blocks.is_empty())
    };
    let mut indirect = false;
    let mut asm: Vec<bool> = Vec::with_capacity(module.functions.len());
    let mut callees: Vec<Vec<usize>> = Vec::with_capacity(module.functions.len());
    for f in &module.functions {
        let mut has_asm = false;
        let mut calls = Vec::new();
        for inst in f.blocks.iter().flat_map(|b| &b.instructions) {
            match inst {
                Instruction::InlineAsm(_) => has_asm = true,
                Instruction::Call { func, .. } => calls.extend(index(func)),
                Instruction::CallIndirect { .. } => indirect = true,
                _ => {}
            }
        }
        asm.push(has_asm);
        callees.push(calls);
    }
    if indirect {
        return vec![true; module.functions.len()];
    }
    // Propagate to callers until nothing changes (the call graph is small).
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..asm.len() {
            if !asm[i] && callees[i].iter().any(|&c| asm[c]) {
                asm[i] = true;
                changed = true;
            }
        }
    }
    asm
}

#[cfg(test)]
mod tests {
    use super::*;
    use phicc::ir::text::parse_module;

    fn function(text: &str) -> IrFunction {
        parse_module(text).unwrap().functions.pop().unwrap()
    }

    #[test]
    fn boundary_values_of_i8() {
        // 0, 1, -1, MIN, MAX, MIN + 1, MAX - 1, then 2^k - 1, 2^k, 2^k + 1
        // and -2^k for k = 1..5 (k = 7 is MIN's own), duplicates dropped.
        let want: Vec<u128> = vec![
            0, 1, 0xff, 0x80, 0x7f, 0x81, 0x7e, 2, 3, 0xfe, 4, 5, 0xfc, 7, 8, 9, 0xf8, 15, 16, 17, 0xf0, 31, 32, 33,
            0xe0,
        ];
        assert_eq!(boundary_values(IrType::I8), want);
        // Unsigned types get the same bit patterns.
        assert_eq!(boundary_values(IrType::U8), want);
        let i32s = boundary_values(IrType::I32);
        for v in [
            0x8000_0000u128,
            0x7fff_ffff,
            0xffff_ffff,
            0x1_0000 - 1,
            0x1_0000,
            0x1_0001,
            0xffff_0000,
        ] {
            assert!(i32s.contains(&v), "{v:#x}");
        }
        assert!(i32s.iter().all(|&v| v <= 0xffff_ffff));
        let f64s = boundary_values(IrType::F64);
        assert!(f64s.contains(&(f64::NEG_INFINITY.to_bits() as u128)));
        assert!(f64s.contains(&((-0.0f64).to_bits() as u128)));
    }

    #[test]
    fn small_parameters_get_every_input() {
        let f = function("define @f(i8, u8) -> i32 {\nbb0:\n  ret 0i32\n}\n");
        let types = [IrType::I8, IrType::U8];
        let sixteen = Inputs {
            exhaustive_bits: 16,
            ..Inputs::CAMPAIGN
        };
        let (v, all) = argument_vectors(&f, &types, &sixteen);
        assert!(all);
        assert_eq!(v.len(), 65536);
        let distinct: std::collections::HashSet<&Vec<u128>> = v.iter().collect();
        assert_eq!(distinct.len(), 65536);
        assert!(v.iter().all(|a| a[0] < 256 && a[1] < 256));
        // An 8-bit budget is too small for two bytes: boundary and random vectors.
        let (v, all) = argument_vectors(&f, &types, &Inputs::CAMPAIGN);
        assert!(!all);
        assert!(v.len() > 16 && v.len() < 100, "{}", v.len());
        // Capped at 16: all zeros, the 7 core values in step (the first is
        // zeros again), each alone for the first byte (0 again), then the
        // second byte alone: 0 (again), 1, -1, MIN.
        let (v, all) = argument_vectors(&f, &types, &Inputs::FUZZ);
        assert!(!all);
        let want: Vec<Vec<u128>> = vec![
            vec![0, 0],
            vec![1, 1],
            vec![0xff, 0xff],
            vec![0x80, 0x80],
            vec![0x7f, 0x7f],
            vec![0x81, 0x81],
            vec![0x7e, 0x7e],
            vec![1, 0],
            vec![0xff, 0],
            vec![0x80, 0],
            vec![0x7f, 0],
            vec![0x81, 0],
            vec![0x7e, 0],
            vec![0, 1],
            vec![0, 0xff],
            vec![0, 0x80],
        ];
        assert_eq!(v, want);
    }

    #[test]
    fn a_recursion_depth_stays_small() {
        let f = function(
            "define @f(i32, i32) -> i32 {\nbb0:\n  %0 = paramref 0 i32\n  %1 = paramref 1 i32\n  %2 = call i32 @f(i32 %0, i32 %1)\n  ret 0i32\n}\n",
        );
        let (v, all) = argument_vectors(&f, &[IrType::I32, IrType::I32], &Inputs::CAMPAIGN);
        assert!(!all);
        assert!(v.iter().all(|a| a[0] <= 3));
        assert!(v.iter().any(|a| a[1] == 0x8000_0000));
        // A depth and one byte: 4 x 256 inputs, all of them.
        let g = function(
            "define @g(i32, i8) -> i32 {\nbb0:\n  %0 = paramref 0 i32\n  %1 = paramref 1 i8\n  %2 = call i32 @g(i32 %0, i8 %1)\n  ret 0i32\n}\n",
        );
        let ten = Inputs {
            exhaustive_bits: 10,
            ..Inputs::CAMPAIGN
        };
        let (v, all) = argument_vectors(&g, &[IrType::I32, IrType::I8], &ten);
        assert!(all);
        assert_eq!(v.len(), 1024);
    }

    /// A cap keeps the first vectors of the uncapped list, for every cap
    /// (the capped list stops building at the cap; it must not change order).
    #[test]
    fn a_cap_keeps_the_first_vectors() {
        let f = function("define @f(i32, i64, f64) -> i32 {\nbb0:\n  ret 0i32\n}\n");
        let types = [IrType::I32, IrType::I64, IrType::F64];
        let all = argument_vectors(&f, &types, &Inputs::CAMPAIGN).0;
        assert!(all.len() > 100, "{}", all.len());
        for cap in [1, 2, 16, 40, all.len() - 1, all.len(), all.len() + 5] {
            let capped = Inputs {
                max_vectors: cap,
                ..Inputs::CAMPAIGN
            };
            let v = argument_vectors(&f, &types, &capped).0;
            assert_eq!(v, all[..cap.min(all.len())], "cap {cap}");
        }
    }

    #[test]
    fn random_vectors_follow_the_seed() {
        let f = function("define @f(i64, i64) -> i32 {\nbb0:\n  ret 0i32\n}\n");
        let types = [IrType::I64, IrType::I64];
        let with = |seed: u64| {
            argument_vectors(
                &f,
                &types,
                &Inputs {
                    seed,
                    ..Inputs::CAMPAIGN
                },
            )
            .0
        };
        assert_eq!(with(1), with(1));
        assert_ne!(with(1), with(2));
        let none = argument_vectors(
            &f,
            &types,
            &Inputs {
                random: 0,
                ..Inputs::CAMPAIGN
            },
        )
        .0;
        // Only the random vectors depend on the seed.
        assert!(none.iter().all(|v| with(1).contains(v) && with(2).contains(v)));
    }

    #[test]
    fn a_call_prints_as_phiopt_replays_it() {
        let call = Call {
            function: "f".into(),
            args: vec![0xff, 0x8000_0000, 2.5f64.to_bits() as u128],
            types: vec![IrType::I8, IrType::U32, IrType::F64],
        };
        assert_eq!(call.to_string(), "@f(-1, 2147483648, 2.5)");
        assert_eq!(
            call.phiopt_flags(),
            format!(" --entry=f --args=-1,-2147483648,{}", 2.5f64.to_bits() as i64)
        );
        assert_eq!(Call::main().phiopt_flags(), "");
    }

    #[test]
    fn asm_reaches_callers() {
        let m = parse_module(
            "define @a() -> i32 {\nbb0:\n  asm \"nop\"\n  ret 0i32\n}\ndefine @b() -> i32 {\nbb1:\n  %0 = call i32 @a()\n  ret %0\n}\ndefine @c() -> i32 {\nbb2:\n  ret 1i32\n}\n",
        )
        .unwrap();
        assert_eq!(may_run_asm(&m), vec![true, true, false]);
    }
}
