//! The knobs of the C generator: sizes, bounds and the relative weights of
//! every statement kind, plus the presets behind `--emphasis`.
//!
//! Weights are relative: a statement kind is picked with probability
//! `weight / sum of the weights of the kinds that are possible here` (a
//! `break` needs an enclosing loop, a call needs a cheap enough callee, ...).
//! A weight of 0 switches a kind off.

phicc::named_enum! {
    /// What a generated program concentrates on (`oracle cgen --emphasis`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
    pub enum Emphasis {
        /// A balanced mix of every feature.
        Default = "default",
        /// Swaps, k-way rotations and copy chains inside loops: the lost-copy and
        /// swap problems of phi elimination after copy propagation.
        LostCopy = "lost-copy",
        /// Per-target `asm goto` with outputs (values live on only one edge) and
        /// empty-template asm with tied operands.
        AsmGoto = "asm-goto",
        /// `main` with a couple of hundred locals and dispatch loops over
        /// ~100-case switches that assign every local: enough phis to trigger
        /// mem2reg's phi copy-cost limit.
        SwitchCost = "switch-cost",
        /// Computed-goto dispatch tables (`&&label`, `goto *p`).
        ComputedGoto = "computed-goto",
        /// Many parameters (more than the argument registers of every target),
        /// parameters modified in the body, address-taken locals passed by pointer.
        Params = "params",
    }
}

/// Relative weights of the statement kinds (see the module header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StmtWeights {
    /// `x = expr;` to a local, parameter or global.
    pub assign: u32,
    /// `*p = expr;` and `arr[i & 3] = expr;` (stores through memory).
    pub store: u32,
    /// `p = &x;` / `p = q;`: retarget a pointer (makes `x` address-taken).
    pub retarget: u32,
    /// `if (c) {...} else {...}`, nested.
    pub if_else: u32,
    /// `for`, `while` and `do` loops with constant trip counts.
    pub loops: u32,
    /// A small `switch` (2 to 8 cases, fallthrough, default).
    pub switch: u32,
    /// A dispatch loop: a bounded loop around a big `switch`
    /// ([`CgenConfig::dispatch_cases`] cases) with break, continue and fallthrough.
    pub dispatch_loop: u32,
    /// `{ T t = a; a = b; b = t; }` between two locals of one type.
    pub swap: u32,
    /// A k-way rotation `t = a; a = b; b = c; ...; z = t;` (k = 3..=6).
    pub rotate: u32,
    /// A copy chain `b = a; c = b; d = c;`.
    pub copy_chain: u32,
    /// A forward `goto` over a block (`if (c) goto skip; {...} skip:;`).
    pub goto_forward: u32,
    /// A loop made of a backward `goto` with a counter.
    pub goto_backward: u32,
    /// A loop entered at two blocks: `if (c) goto mid;` before a
    /// backward-goto loop `top: {...} mid: {...} if (++n < trip) goto top;`.
    pub goto_into_loop: u32,
    /// A computed-goto dispatch table (`static void *tbl[] = {&&l0, ...}; goto *tbl[i];`).
    pub computed_goto: u32,
    /// `x = f(args);` to an earlier function (arguments may be `&local`).
    pub call: u32,
    /// `mix(va_sum(k, a, b, ...));`: a call of the variadic helper, which
    /// the inliner must leave a call.
    pub variadic_call: u32,
    /// Per-target `asm goto` with output operands and a plain-C `#else`.
    pub asm_goto: u32,
    /// Empty-template asm with tied operands (`asm("" : "=r"(x) : "0"(y))`, `"+r"`).
    pub asm_tied: u32,
    /// A declaration without initializer assigned on every path before use.
    pub uninit_decl: u32,
    /// A nested block with its own declarations.
    pub block: u32,
    /// `mix(x);`: fold a value into the running checksum.
    pub mix: u32,
    /// A conditional `break`, `continue`, `goto` out of a region or early `return`.
    pub jump: u32,
}

/// Everything the generator can be told. Build one with
/// [`CgenConfig::preset`] and adjust fields as needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CgenConfig {
    /// Functions besides `main`, chosen in `0..=max_functions`; each calls only
    /// earlier ones (and itself, when recursive).
    pub max_functions: usize,
    /// Globals of scalar type (one or more of each width), plus a pointer global
    /// per few and two global arrays.
    pub globals: usize,
    /// Scalar locals a helper function declares: `1..=max_locals`.
    pub max_locals: usize,
    /// Scalar locals `main` declares.
    pub main_locals: usize,
    /// Parameters of a helper function: `0..=max_params`. Above 8 integer or 8
    /// floating-point parameters, arguments go on the stack on every target.
    pub max_params: usize,
    /// Percent chance that a helper function gets `max_params` parameters
    /// (a call with more arguments than argument registers).
    pub many_params_percent: u32,
    /// Percent of helper functions that are small (1 to 3 locals, a few
    /// statements): within the inliner's budget, and cheap enough to be
    /// called in loops.
    pub small_function_percent: u32,
    /// Percent of helper functions that are recursive: a leading `depth`
    /// parameter (callers pass 0 to 3) and a call of themselves with
    /// `depth - 1` first thing.
    pub recursive_percent: u32,
    /// Percent of helper functions declared `static inline
    /// __attribute__((always_inline))` (not those with a computed goto or
    /// recursion, which gcc refuses to inline) and `__attribute__((noinline))`.
    pub always_inline_percent: u32,
    pub noinline_percent: u32,
    /// Percent of locals declared `volatile` (never promoted).
    pub volatile_percent: u32,
    /// Percent of locals declared without initializer (assigned before use).
    pub uninit_percent: u32,
    /// Percent of locals that are pointers to a local or global of their type.
    pub pointer_percent: u32,
    /// Statements of a function body, nested ones included (`main` splits
    /// them between its checkpoints); each also stops at `max_work`.
    pub stmts_per_function: usize,
    /// Statements of a nested body (loop, branch, case): `1..=stmts_per_block`.
    pub stmts_per_block: usize,
    /// Maximum nesting of compound statements.
    pub max_depth: usize,
    /// Maximum depth of an expression tree.
    pub expr_depth: usize,
    /// Maximum trip count of one loop.
    pub max_trip: u32,
    /// Cases of the big switch of a dispatch loop: `dispatch_cases.0..=dispatch_cases.1`.
    pub dispatch_cases: (usize, usize),
    /// Labels of a computed-goto dispatch table: `2..=computed_goto_labels`.
    pub computed_goto_labels: usize,
    /// Dispatch loops in `main` whose cases together assign every local of
    /// `main` (most cases ending in `break`): with ~110 cases and ~190
    /// promotable locals each adds ~18,000 phi copies (a phi at the join of
    /// the switch and one at the loop latch per local), so 4 exceed
    /// mem2reg's phi copy-cost limit (50,000).
    pub covering_dispatch_loops: usize,
    /// Checkpoints `main` prints (the checksum so far) besides the final one.
    pub checkpoints: usize,
    /// Bound on the statements a run executes, counted statically (a loop
    /// multiplies its body, a call adds its callee's bound). Keeps every
    /// program well under a second natively and within the interpreter's fuel.
    pub max_work: u64,
    /// Relative weights of the statement kinds.
    pub weights: StmtWeights,
}

impl Default for CgenConfig {
    fn default() -> Self {
        CgenConfig::preset(Emphasis::Default)
    }
}

impl CgenConfig {
    /// The configuration behind `--emphasis`.
    pub fn preset(emphasis: Emphasis) -> CgenConfig {
        let mut c = CgenConfig {
            max_functions: 4,
            globals: 10,
            max_locals: 10,
            main_locals: 14,
            max_params: 6,
            many_params_percent: 10,
            small_function_percent: 30,
            recursive_percent: 15,
            always_inline_percent: 15,
            noinline_percent: 10,
            volatile_percent: 8,
            uninit_percent: 25,
            pointer_percent: 12,
            stmts_per_function: 12,
            stmts_per_block: 4,
            max_depth: 4,
            expr_depth: 3,
            max_trip: 8,
            dispatch_cases: (4, 24),
            computed_goto_labels: 6,
            covering_dispatch_loops: 0,
            checkpoints: 3,
            max_work: 40_000,
            weights: StmtWeights {
                assign: 30,
                store: 6,
                retarget: 4,
                if_else: 10,
                loops: 9,
                switch: 4,
                dispatch_loop: 2,
                swap: 5,
                rotate: 4,
                copy_chain: 3,
                goto_forward: 3,
                goto_backward: 2,
                goto_into_loop: 3,
                computed_goto: 2,
                call: 6,
                variadic_call: 2,
                asm_goto: 3,
                asm_tied: 3,
                uninit_decl: 4,
                block: 3,
                mix: 4,
                jump: 5,
            },
        };
        let w = &mut c.weights;
        match emphasis {
            Emphasis::Default => {}
            Emphasis::LostCopy => {
                w.swap = 24;
                w.rotate = 20;
                w.copy_chain = 12;
                w.loops = 16;
                w.asm_tied = 5;
                w.call = 3;
                w.computed_goto = 1;
                w.dispatch_loop = 1;
                c.max_locals = 14;
                c.main_locals = 18;
            }
            Emphasis::AsmGoto => {
                w.asm_goto = 24;
                w.asm_tied = 12;
                w.loops = 12;
            }
            Emphasis::SwitchCost => {
                c.max_functions = 1;
                c.main_locals = 240;
                c.covering_dispatch_loops = 4;
                c.dispatch_cases = (100, 120);
                c.stmts_per_function = 6;
                c.stmts_per_block = 2;
                c.max_depth = 2;
                c.checkpoints = 2;
                c.max_work = 60_000;
                w.dispatch_loop = 4;
                w.call = 2;
            }
            Emphasis::ComputedGoto => {
                w.computed_goto = 20;
                w.goto_forward = 8;
                w.goto_backward = 8;
                w.goto_into_loop = 8;
                w.jump = 8;
                c.computed_goto_labels = 12;
                c.max_functions = 6;
            }
            Emphasis::Params => {
                c.max_functions = 6;
                c.max_params = 20;
                c.many_params_percent = 50;
                w.call = 24;
                w.store = 10;
                w.retarget = 6;
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::Emphasis;
    use clap::ValueEnum;

    /// The name table and `--emphasis` spell each preset the same way.
    #[test]
    fn emphasis_names_match_the_command_line() {
        for e in Emphasis::ALL {
            assert_eq!(e.to_possible_value().unwrap().get_name(), e.name());
            assert_eq!(Emphasis::from_name(e.name()), Some(e));
        }
    }
}
