//! x86-64 general-purpose registers with their AT&T names at every width,
//! the argument register sequences of the SysV ABI and memory operands.

use crate::ir::types::AddressSpace;
use std::fmt;

/// A general-purpose register, in hardware encoding order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gpr {
    Rax,
    Rcx,
    Rdx,
    Rbx,
    Rsp,
    Rbp,
    Rsi,
    Rdi,
    R8,
    R9,
    R10,
    R11,
    R12,
    R13,
    R14,
    R15,
}

use Gpr::*;

pub const ALL_GPRS: [Gpr; 16] = [
    Rax, Rcx, Rdx, Rbx, Rsp, Rbp, Rsi, Rdi, R8, R9, R10, R11, R12, R13, R14, R15,
];

/// INTEGER argument registers in order.
pub const ARG_GPRS: [Gpr; 6] = [Rdi, Rsi, Rdx, Rcx, R8, R9];

/// Registers a callee must preserve (besides `rbp` and `rsp`).
pub const CALLEE_SAVED: [Gpr; 5] = [Rbx, R12, R13, R14, R15];

const N64: [&str; 16] = [
    "%rax", "%rcx", "%rdx", "%rbx", "%rsp", "%rbp", "%rsi", "%rdi", "%r8", "%r9", "%r10", "%r11", "%r12", "%r13",
    "%r14", "%r15",
];
const N32: [&str; 16] = [
    "%eax", "%ecx", "%edx", "%ebx", "%esp", "%ebp", "%esi", "%edi", "%r8d", "%r9d", "%r10d", "%r11d", "%r12d", "%r13d",
    "%r14d", "%r15d",
];
const N16: [&str; 16] = [
    "%ax", "%cx", "%dx", "%bx", "%sp", "%bp", "%si", "%di", "%r8w", "%r9w", "%r10w", "%r11w", "%r12w", "%r13w",
    "%r14w", "%r15w",
];
const N8: [&str; 16] = [
    "%al", "%cl", "%dl", "%bl", "%spl", "%bpl", "%sil", "%dil", "%r8b", "%r9b", "%r10b", "%r11b", "%r12b", "%r13b",
    "%r14b", "%r15b",
];

impl Gpr {
    /// The name of the low `size` bytes (1, 2, 4 or 8; 16 reads as 8).
    pub fn name(self, size: usize) -> &'static str {
        let i = self as usize;
        match size {
            1 => N8[i],
            2 => N16[i],
            4 => N32[i],
            _ => N64[i],
        }
    }

    pub fn q(self) -> &'static str {
        N64[self as usize]
    }

    pub fn l(self) -> &'static str {
        N32[self as usize]
    }

    /// The high byte register (`%ah` ...) of `rax rbx rcx rdx`.
    pub fn high_byte(self) -> Option<&'static str> {
        match self {
            Rax => Some("%ah"),
            Rbx => Some("%bh"),
            Rcx => Some("%ch"),
            Rdx => Some("%dh"),
            _ => None,
        }
    }

    /// Parses a register name of any width, with or without `%` (clobber lists).
    pub fn parse(name: &str) -> Option<Gpr> {
        let n = name.trim_start_matches('%');
        for (i, g) in ALL_GPRS.iter().enumerate() {
            if [N64[i], N32[i], N16[i], N8[i]].iter().any(|x| &x[1..] == n) {
                return Some(*g);
            }
        }
        match n {
            "ah" => Some(Rax),
            "bh" => Some(Rbx),
            "ch" => Some(Rcx),
            "dh" => Some(Rdx),
            _ => None,
        }
    }
}

/// The AT&T size suffix of an access of `size` bytes.
pub fn suffix(size: usize) -> char {
    match size {
        1 => 'b',
        2 => 'w',
        4 => 'l',
        _ => 'q',
    }
}

/// A memory operand `seg:disp(base)`, or `sym+disp(%rip)` when `sym` is set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mem {
    pub base: Gpr,
    pub disp: i64,
    pub seg: AddressSpace,
    /// A RIP-relative symbol (then `base` is ignored).
    pub sym: Option<std::rc::Rc<str>>,
}

impl Mem {
    pub fn new(base: Gpr, disp: i64) -> Mem {
        Mem {
            base,
            disp,
            seg: AddressSpace::Default,
            sym: None,
        }
    }

    /// `sym+disp(%rip)`.
    pub fn rip(sym: std::rc::Rc<str>, disp: i64) -> Mem {
        Mem {
            base: Gpr::Rbp,
            disp,
            seg: AddressSpace::Default,
            sym: Some(sym),
        }
    }

    /// The same location `d` bytes further.
    pub fn at(&self, d: i64) -> Mem {
        Mem {
            disp: self.disp + d,
            ..self.clone()
        }
    }
}

impl fmt::Display for Mem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.seg {
            AddressSpace::SegFs => f.write_str("%fs:")?,
            AddressSpace::SegGs => f.write_str("%gs:")?,
            AddressSpace::Default => {}
        }
        if let Some(sym) = &self.sym {
            crate::backend::write_symbol(f, sym)?;
            if self.disp != 0 {
                write!(f, "{:+}", self.disp)?;
            }
            return f.write_str("(%rip)");
        }
        // Written piece by piece: a nested `write!` runs the formatting
        // machinery again for every memory operand the backend prints.
        if self.disp != 0 {
            f.write_str(itoa::Buffer::new().format(self.disp))?;
        }
        f.write_str("(")?;
        f.write_str(self.base.q())?;
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_parsing() {
        assert_eq!(R9.name(4), "%r9d");
        assert_eq!(Rsi.name(1), "%sil");
        assert_eq!(Gpr::parse("%ebx"), Some(Rbx));
        assert_eq!(Gpr::parse("r12w"), Some(R12));
        assert_eq!(Gpr::parse("ah"), Some(Rax));
        assert_eq!(Gpr::parse("xmm0"), None);
        let m = Mem::new(Rbp, -24);
        assert_eq!(m.to_string(), "-24(%rbp)");
        assert_eq!(m.at(24).to_string(), "(%rbp)");
        let s = Mem {
            seg: AddressSpace::SegGs,
            ..Mem::new(R11, 8)
        };
        assert_eq!(s.to_string(), "%gs:8(%r11)");
    }
}
