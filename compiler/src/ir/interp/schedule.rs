//! The deterministic schedule that drives inline asm, and the hashing of the
//! event history that gives external calls their return values.
//!
//! The schedule is a splitmix64 generator (Steele, Lea and Flood, "Fast
//! splittable pseudorandom number generators", OOPSLA 2014) seeded with the
//! run's `schedule_seed` and advanced exactly once per executed asm statement,
//! in dynamic order. From that one draw come the asm's choice (fall-through or
//! goto label `i`) and the values of its outputs, which are written only on
//! the fall-through path. Along a goto edge nothing is written, and values an
//! asm defines (`is_def` outputs) become undefined there.

use super::exec::{canon, Machine, Res};
use super::{Event, TrapKind};
use crate::ir::instruction::{InlineAsm, Operand};
use crate::ir::types::IrType;

const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// The splitmix64 finalizer.
pub(super) fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A splitmix64 stream.
#[derive(Clone, Debug)]
pub(super) struct Schedule {
    state: u64,
}

impl Schedule {
    pub fn new(seed: u64) -> Schedule {
        Schedule { state: seed }
    }

    pub fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix64(self.state)
    }
}

/// A value of type `ty` derived from `h`: integers and pointers take the
/// hash bits, floats a small integral value (so they print readably).
pub(super) fn event_return(h: u64, ty: IrType) -> u128 {
    match ty {
        IrType::F32 => ((h % 1000) as f32).to_bits() as u128,
        IrType::F64 | IrType::F128 => ((h % 1000) as f64).to_bits() as u128,
        t if t.size() == 16 => ((h as u128) << 64) | mix64(h ^ GOLDEN) as u128,
        t => canon(h as u128, t),
    }
}

/// Fold one event into the running history hash (FNV-1a over its text, then mixed).
pub(super) fn mix_event(state: u64, e: &Event) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    };
    eat(e.name.as_bytes());
    for a in &e.args {
        eat(&[0xff]);
        eat(a.as_bytes());
    }
    mix64(state ^ h).wrapping_add(GOLDEN)
}

impl<'m> Machine<'m> {
    /// Execute an asm statement; `Some(block index)` when it takes a goto edge.
    pub(super) fn exec_asm(&mut self, asm: &InlineAsm, targets: &[u32]) -> Res<Option<u32>> {
        for (i, input) in asm.inputs.iter().enumerate() {
            if let Operand::Value(_) = input.value {
                self.opnd(&input.value, asm.input_type(i))?;
            }
        }
        let draw = self.schedule.next();
        let k = asm.goto_labels.len() as u64;
        let choice = if k == 0 { 0 } else { (draw >> 32) % (k + 1) };
        if choice > 0 {
            let t = targets.get(choice as usize - 1).copied().unwrap_or(super::memory::NONE);
            if t == super::memory::NONE {
                return Err(TrapKind::Unsupported("asm goto to a missing block".into()).into());
            }
            for o in asm.outputs.iter().filter(|o| o.is_def) {
                self.undefine(o.value);
            }
            return Ok(Some(t));
        }
        for (i, o) in asm.outputs.iter().enumerate() {
            let ty = asm.output_type(i);
            let v = event_return(mix64(draw ^ (i as u64 + 1).wrapping_mul(GOLDEN)), ty);
            if o.is_def {
                self.set(o.value, v);
            } else {
                let a = self.addr(o.value)?;
                self.mem.write(a, ty.size(), v)?;
            }
        }
        Ok(None)
    }
}
