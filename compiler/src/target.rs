//! The target table (cproc's habit of targets as data): the one place that
//! names each target's facts. One row per target — its names, GNU triple,
//! gcc driver, QEMU user-mode emulator, sysroot and glibc headers, plain
//! `char` and `wchar_t` signedness, `long double` format, `va_list` shape,
//! bit-field layout rule, memory-only asm constraints, ELF machine and page
//! size. All three targets are Linux, glibc, LP64 and little-endian.
//!
//! The compiler, the tests, the oracle, cgen and (through
//! `phicc --print-target-info`) the scripts ask this table instead of naming
//! a fact themselves. The `targets!` invocation below lists the variants
//! once and maps each to its row in [`rows`], so adding a target without its
//! row fails to compile, as does every exhaustive `match` on [`Target`] (the
//! backend's ISA, the ABI classification, the predefined macros, cgen's asm
//! templates) that has no arm for it yet. Sources: the SysV AMD64, AAPCS64
//! and RISC-V ELF psABI documents, and gcc's own answers (`gcc -dM -E`).

use std::fmt;
use std::str::FromStr;

/// How a target stores `long double` (`IrType::F128`) in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LongDoubleFormat {
    /// x87 80-bit extended precision, padded to 16 bytes (x86-64).
    X87,
    /// IEEE 754 binary128 (AArch64, RISC-V).
    Binary128,
}

impl LongDoubleFormat {
    /// The name `--print-target-info` prints.
    pub fn name(self) -> &'static str {
        match self {
            LongDoubleFormat::X87 => "x87",
            LongDoubleFormat::Binary128 => "binary128",
        }
    }

    /// Significand bits, counting the explicit or implicit integer bit (`LDBL_MANT_DIG`).
    pub fn mant_dig(self) -> u32 {
        match self {
            LongDoubleFormat::X87 => 64,
            LongDoubleFormat::Binary128 => 113,
        }
    }
}

/// The shape of `__builtin_va_list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VaListKind {
    /// SysV AMD64: `struct __va_list_tag[1]`, a 24-byte struct in a
    /// one-element array, so `va_list` decays to a pointer and a `va_list`
    /// parameter is one.
    SysvArray,
    /// AAPCS64: `struct __va_list`, a 32-byte object passed and copied as such.
    Aapcs64Struct,
    /// RISC-V LP64: `void *` walking the saved argument area.
    Pointer,
}

impl VaListKind {
    /// The name `--print-target-info` prints.
    pub fn name(self) -> &'static str {
        match self {
            VaListKind::SysvArray => "sysv-array",
            VaListKind::Aapcs64Struct => "aapcs64-struct",
            VaListKind::Pointer => "pointer",
        }
    }

    /// Size and alignment of the `va_list` object, in bytes.
    pub fn size_align(self) -> (u64, u64) {
        match self {
            VaListKind::SysvArray => (24, 8),
            VaListKind::Aapcs64Struct => (32, 8),
            VaListKind::Pointer => (8, 8),
        }
    }

    /// Whether `va_list` is an array type (it decays to a pointer, and a
    /// `va_list` parameter is adjusted to one).
    pub fn is_array(self) -> bool {
        match self {
            VaListKind::SysvArray => true,
            VaListKind::Aapcs64Struct | VaListKind::Pointer => false,
        }
    }

    /// Whether `va_list` is a plain pointer (a scalar, not an aggregate).
    pub fn is_pointer(self) -> bool {
        match self {
            VaListKind::Pointer => true,
            VaListKind::SysvArray | VaListKind::Aapcs64Struct => false,
        }
    }
}

/// One row of the table: every fact about one target.
#[derive(Debug)]
pub struct TargetInfo {
    /// The name `--target=` takes and every tool prints.
    pub name: &'static str,
    /// Other names `--target=` accepts.
    pub aliases: &'static [&'static str],
    /// The GNU triple (Debian's multiarch name).
    pub triple: &'static str,
    /// The cross gcc driver, `<triple>-gcc` (the host's is plain `gcc`, see [`Target::gcc`]).
    pub cross_gcc: &'static str,
    /// The QEMU user-mode emulator that runs the target's binaries on another host.
    pub qemu: &'static str,
    /// The cross libc's root (`qemu -L`, and where its headers live).
    pub sysroot: &'static str,
    /// glibc's include directories, searched after `-I` and the compiler's own headers.
    pub system_include_dirs: &'static [&'static str],
    /// The predefined macro gcc defines for this ISA (what C code tests with `#if defined`).
    pub arch_macro: &'static str,
    /// Whether plain `char` is signed.
    pub char_signed: bool,
    /// Whether `wchar_t` is signed (`int`) rather than `unsigned int`.
    pub wchar_signed: bool,
    pub long_double: LongDoubleFormat,
    pub va_list: VaListKind,
    /// Whether unnamed bit-fields count toward a struct's alignment (AAPCS64 does).
    pub unnamed_bitfields_align: bool,
    /// The asm constraint letters that allow only a memory operand (besides `m`).
    pub asm_memory_constraints: &'static [char],
    /// The ELF `e_machine` of the target's objects (`object::elf::EM_*`).
    pub elf_machine: u16,
    /// The `object` crate's name for the architecture (its ELF writer).
    pub object_architecture: object::Architecture,
    /// The base page size of Linux on this ISA (QEMU user-mode's default).
    pub page_size: u64,
}

/// The rows, one `const` per target.
pub mod rows {
    use super::{LongDoubleFormat, TargetInfo, VaListKind};
    use object::elf;

    pub const X86_64: TargetInfo = TargetInfo {
        name: "x86_64",
        aliases: &["amd64", "x86-64"],
        triple: "x86_64-linux-gnu",
        cross_gcc: "x86_64-linux-gnu-gcc",
        qemu: "qemu-x86_64",
        sysroot: "/usr/x86_64-linux-gnu",
        system_include_dirs: &["/usr/include/x86_64-linux-gnu", "/usr/include"],
        arch_macro: "__x86_64__",
        char_signed: true,
        wchar_signed: true,
        long_double: LongDoubleFormat::X87,
        va_list: VaListKind::SysvArray,
        unnamed_bitfields_align: false,
        asm_memory_constraints: &[],
        elf_machine: elf::EM_X86_64.0,
        object_architecture: object::Architecture::X86_64,
        page_size: 4096,
    };

    pub const AARCH64: TargetInfo = TargetInfo {
        name: "aarch64",
        aliases: &["arm64"],
        triple: "aarch64-linux-gnu",
        cross_gcc: "aarch64-linux-gnu-gcc",
        qemu: "qemu-aarch64",
        sysroot: "/usr/aarch64-linux-gnu",
        system_include_dirs: &["/usr/aarch64-linux-gnu/include"],
        arch_macro: "__aarch64__",
        char_signed: false,
        wchar_signed: false,
        long_double: LongDoubleFormat::Binary128,
        va_list: VaListKind::Aapcs64Struct,
        unnamed_bitfields_align: true,
        asm_memory_constraints: &['Q'],
        elf_machine: elf::EM_AARCH64.0,
        object_architecture: object::Architecture::Aarch64,
        page_size: 4096,
    };

    pub const RISCV64: TargetInfo = TargetInfo {
        name: "riscv64",
        aliases: &["rv64"],
        triple: "riscv64-linux-gnu",
        cross_gcc: "riscv64-linux-gnu-gcc",
        qemu: "qemu-riscv64",
        sysroot: "/usr/riscv64-linux-gnu",
        system_include_dirs: &["/usr/riscv64-linux-gnu/include"],
        arch_macro: "__riscv",
        char_signed: false,
        wchar_signed: true,
        long_double: LongDoubleFormat::Binary128,
        va_list: VaListKind::Pointer,
        unnamed_bitfields_align: false,
        asm_memory_constraints: &['A'],
        elf_machine: elf::EM_RISCV.0,
        object_architecture: object::Architecture::Riscv64,
        page_size: 4096,
    };
}

/// Declares [`Target`] with one variant per listed row of [`rows`],
/// [`Target::ALL`] in that order, and [`Target::info`] (a missing row is an
/// unresolved name).
macro_rules! targets {
    ($($(#[$doc:meta])* $v:ident => $row:ident),* $(,)?) => {
        /// A compilation target (Linux, glibc).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Target {
            $($(#[$doc])* $v,)*
        }

        const TARGET_COUNT: usize = [$(stringify!($v)),*].len();

        impl Target {
            /// Every target, in table order.
            pub const ALL: [Target; TARGET_COUNT] = [$(Target::$v),*];

            /// The target's row.
            pub fn info(self) -> &'static TargetInfo {
                match self {
                    $(Target::$v => &rows::$row,)*
                }
            }
        }
    };
}

targets! {
    /// x86-64 (SysV AMD64 ABI).
    X86_64 => X86_64,
    /// AArch64 (AAPCS64).
    Aarch64 => AARCH64,
    /// RISC-V 64 (RV64GC, LP64D).
    Riscv64 => RISCV64,
}

impl Target {
    /// Parses a target's name or alias (`x86_64`, `arm64`, `rv64`, ...), or a
    /// triple whose first component is one (`aarch64-linux-gnu`).
    pub fn from_name(name: &str) -> Option<Target> {
        let is = |t: &Target, s: &str| t.info().name == s || t.info().aliases.contains(&s);
        let arch = name.split('-').next().unwrap_or("");
        Target::ALL
            .into_iter()
            .find(|t| is(t, name))
            .or_else(|| Target::ALL.into_iter().find(|t| is(t, arch)))
    }

    /// The ISA of the machine this program runs on, if it is a target.
    pub fn host() -> Option<Target> {
        Target::from_name(std::env::consts::ARCH)
    }

    /// Whether this target's binaries run natively here.
    pub fn is_host(self) -> bool {
        Target::host() == Some(self)
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn triple(self) -> &'static str {
        self.info().triple
    }

    /// The gcc driver that compiles, assembles and links for this target
    /// here: `gcc` on a host of this ISA, the cross driver otherwise.
    pub fn gcc(self) -> &'static str {
        if self.is_host() {
            "gcc"
        } else {
            self.info().cross_gcc
        }
    }

    /// The QEMU user-mode emulator that runs this target's binaries, or
    /// `None` when the host runs them natively.
    pub fn emulator(self) -> Option<&'static str> {
        (!self.is_host()).then_some(self.info().qemu)
    }

    pub fn char_is_signed(self) -> bool {
        self.info().char_signed
    }

    pub fn wchar_is_signed(self) -> bool {
        self.info().wchar_signed
    }

    pub fn long_double(self) -> LongDoubleFormat {
        self.info().long_double
    }

    pub fn va_list(self) -> VaListKind {
        self.info().va_list
    }

    pub fn system_include_dirs(self) -> &'static [&'static str] {
        self.info().system_include_dirs
    }

    /// The ISA-identifying predefined macro (`__x86_64__`, `__aarch64__`, `__riscv`).
    pub fn arch_macro(self) -> &'static str {
        self.info().arch_macro
    }

    /// The facts as `key=value` lines (what `phicc --print-target-info` prints):
    /// lists are comma-separated, booleans `true`/`false`, and `gcc` and
    /// `emulator` are what this host uses (`emulator` is empty when the
    /// target runs natively).
    pub fn describe(self) -> String {
        let i = self.info();
        let (va_size, va_align) = i.va_list.size_align();
        let asm_mem: String = i.asm_memory_constraints.iter().collect();
        let lines = [
            ("name", i.name.into()),
            ("aliases", i.aliases.join(",")),
            ("triple", i.triple.into()),
            ("host", self.is_host().to_string()),
            ("gcc", self.gcc().into()),
            ("cross_gcc", i.cross_gcc.into()),
            ("qemu", i.qemu.into()),
            ("emulator", self.emulator().unwrap_or("").into()),
            ("sysroot", i.sysroot.into()),
            ("include_dirs", i.system_include_dirs.join(",")),
            ("arch_macro", i.arch_macro.into()),
            ("char_signed", i.char_signed.to_string()),
            ("wchar_signed", i.wchar_signed.to_string()),
            ("long_double", i.long_double.name().into()),
            ("va_list", i.va_list.name().into()),
            ("va_list_size", va_size.to_string()),
            ("va_list_align", va_align.to_string()),
            ("unnamed_bitfields_align", i.unnamed_bitfields_align.to_string()),
            ("asm_memory_constraints", asm_mem),
            ("elf_machine", i.elf_machine.to_string()),
            ("page_size", i.page_size.to_string()),
        ];
        lines.iter().map(|(k, v)| format!("{k}={v}\n")).collect()
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Target, String> {
        Target::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
            format!("unknown target `{s}` (expected {})", names.join(", "))
        })
    }
}

/// Serialized as its name (`"x86_64"`), read back by name or alias.
#[cfg(feature = "serde")]
impl serde::Serialize for Target {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Target {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Target, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_aliases_and_triples_parse() {
        assert_eq!(Target::from_name("aarch64-linux-gnu"), Some(Target::Aarch64));
        assert_eq!(Target::from_name("riscv64"), Some(Target::Riscv64));
        assert_eq!(Target::from_name("x86-64"), Some(Target::X86_64));
        assert_eq!(Target::from_name("arm64"), Some(Target::Aarch64));
        assert_eq!(Target::from_name("mips"), None);
        assert!("sparc"
            .parse::<Target>()
            .unwrap_err()
            .contains("x86_64, aarch64, riscv64"));
        for t in Target::ALL {
            assert_eq!(Target::from_name(t.name()), Some(t));
            assert_eq!(Target::from_name(t.triple()), Some(t));
            assert_eq!(t.to_string().parse::<Target>(), Ok(t));
        }
    }

    #[test]
    fn rows_follow_the_gnu_naming() {
        for t in Target::ALL {
            let i = t.info();
            assert_eq!(i.triple, format!("{}-linux-gnu", i.name));
            assert_eq!(i.cross_gcc, format!("{}-gcc", i.triple));
            assert_eq!(i.qemu, format!("qemu-{}", i.name));
            assert_eq!(i.sysroot, format!("/usr/{}", i.triple));
            assert!(i.system_include_dirs.iter().any(|d| d.contains(i.triple)));
        }
    }

    #[test]
    fn facts_match_the_psabis() {
        assert!(Target::X86_64.char_is_signed());
        assert!(!Target::Aarch64.char_is_signed() && !Target::Riscv64.char_is_signed());
        assert!(!Target::Aarch64.wchar_is_signed() && Target::Riscv64.wchar_is_signed());
        assert_eq!(Target::X86_64.long_double().mant_dig(), 64);
        assert_eq!(Target::Riscv64.long_double().mant_dig(), 113);
        assert!(Target::X86_64.va_list().is_array());
        assert_eq!(Target::Aarch64.va_list().size_align(), (32, 8));
        assert!(Target::Riscv64.va_list().is_pointer());
        assert_eq!(Target::X86_64.info().elf_machine, 62);
        assert_eq!(Target::Aarch64.info().elf_machine, 183);
        assert_eq!(Target::Riscv64.info().elf_machine, 243);
    }

    #[test]
    fn the_host_runs_natively_and_others_under_qemu() {
        for t in Target::ALL {
            if t.is_host() {
                assert_eq!((t.gcc(), t.emulator()), ("gcc", None));
            } else {
                assert_eq!((t.gcc(), t.emulator()), (t.info().cross_gcc, Some(t.info().qemu)));
            }
        }
    }

    #[test]
    fn describe_prints_key_value_lines() {
        let d = Target::Riscv64.describe();
        assert!(d.contains("\ntriple=riscv64-linux-gnu\n"), "{d}");
        assert!(d.contains("\nqemu=qemu-riscv64\n"));
        assert!(d.contains("\nlong_double=binary128\n"));
        assert!(d.contains("\nva_list=pointer\n"));
        assert!(d.lines().all(|l| l.split_once('=').is_some_and(|(k, _)| !k.is_empty())));
    }
}
