//! The predefined macros gcc would give for a target, as the `#define` lines
//! of the preprocessor's built-in buffer: C11 6.10.8, the GNU identity and
//! type macros glibc's headers test, `<float.h>`'s `__FLT_*`/`__DBL_*`/
//! `__LDBL_*` values, and each ISA's own macros (as `gcc -dM -E` prints them).
//! The target's facts (char and `wchar_t` signedness, `long double` format,
//! the ISA macro) come from the target table, `crate::target`.

use crate::target::{LongDoubleFormat, Target};
use std::fmt::Write;

/// The version of gcc we claim: new enough that glibc takes its GNU paths,
/// old enough that it still supplies typedefs for `_Float32` and friends.
pub const GNUC: u32 = 4;
pub const GNUC_MINOR: u32 = 9;

/// The predefined macros, as `#define` lines for the preprocessor's built-in buffer.
pub fn predefined_macros(target: Target) -> String {
    let mut s = String::new();
    let mut def = |name: &str, value: &str| {
        let _ = writeln!(s, "#define {name} {value}");
    };
    // C11 6.10.8.
    def("__STDC__", "1");
    def("__STDC_VERSION__", "201112L");
    def("__STDC_HOSTED__", "1");
    def("__STDC_UTF_16__", "1");
    def("__STDC_UTF_32__", "1");
    def("__STDC_IEC_559__", "1");
    def("__STDC_NO_COMPLEX__", "1");
    def("__STDC_NO_THREADS__", "1");
    // GNU identity.
    def("__GNUC__", &GNUC.to_string());
    def("__GNUC_MINOR__", &GNUC_MINOR.to_string());
    def("__GNUC_PATCHLEVEL__", "0");
    def("__GNUC_STDC_INLINE__", "1");
    def("__VERSION__", "\"4.9.0 (phicc)\"");
    def("__phicc__", "1");
    def("__NO_INLINE__", "1");
    def("__ELF__", "1");
    def("__linux", "1");
    def("__linux__", "1");
    def("__gnu_linux__", "1");
    def("__unix", "1");
    def("__unix__", "1");
    def("__USER_LABEL_PREFIX__", "");
    def("__REGISTER_PREFIX__", "");
    def("__CHAR_BIT__", "8");
    def("__ORDER_LITTLE_ENDIAN__", "1234");
    def("__ORDER_BIG_ENDIAN__", "4321");
    def("__ORDER_PDP_ENDIAN__", "3412");
    def("__BYTE_ORDER__", "__ORDER_LITTLE_ENDIAN__");
    def("__FLOAT_WORD_ORDER__", "__ORDER_LITTLE_ENDIAN__");
    def("__LITTLE_ENDIAN__", "1");
    def("_LP64", "1");
    def("__LP64__", "1");
    def("__BIGGEST_ALIGNMENT__", "16");
    for (name, v) in [
        ("RELAXED", 0),
        ("CONSUME", 1),
        ("ACQUIRE", 2),
        ("RELEASE", 3),
        ("ACQ_REL", 4),
        ("SEQ_CST", 5),
    ] {
        def(&format!("__ATOMIC_{name}"), &v.to_string());
    }
    for n in [1, 2, 4, 8] {
        def(&format!("__GCC_HAVE_SYNC_COMPARE_AND_SWAP_{n}"), "1");
    }
    // Sizes (LP64).
    for (name, size) in [
        ("SHORT", 2),
        ("INT", 4),
        ("LONG", 8),
        ("LONG_LONG", 8),
        ("POINTER", 8),
        ("FLOAT", 4),
        ("DOUBLE", 8),
        ("LONG_DOUBLE", 16),
        ("SIZE_T", 8),
        ("PTRDIFF_T", 8),
        ("WCHAR_T", 4),
        ("WINT_T", 4),
        ("INT128", 16),
    ] {
        def(&format!("__SIZEOF_{name}__"), &size.to_string());
    }
    // Limits and types, as gcc spells them.
    def("__SCHAR_MAX__", "0x7f");
    def("__SHRT_MAX__", "0x7fff");
    def("__INT_MAX__", "0x7fffffff");
    def("__LONG_MAX__", "0x7fffffffffffffffL");
    def("__LONG_LONG_MAX__", "0x7fffffffffffffffLL");
    def("__SCHAR_WIDTH__", "8");
    def("__SHRT_WIDTH__", "16");
    def("__INT_WIDTH__", "32");
    def("__LONG_WIDTH__", "64");
    def("__LONG_LONG_WIDTH__", "64");
    def("__PTRDIFF_WIDTH__", "64");
    def("__SIZE_WIDTH__", "64");
    def("__INTMAX_WIDTH__", "64");
    def("__INTPTR_WIDTH__", "64");
    def("__WCHAR_WIDTH__", "32");
    def("__WINT_WIDTH__", "32");
    def("__SIG_ATOMIC_WIDTH__", "32");
    def("__SIZE_MAX__", "0xffffffffffffffffUL");
    def("__PTRDIFF_MAX__", "0x7fffffffffffffffL");
    def("__INTMAX_MAX__", "0x7fffffffffffffffL");
    def("__UINTMAX_MAX__", "0xffffffffffffffffUL");
    def("__INTPTR_MAX__", "0x7fffffffffffffffL");
    def("__UINTPTR_MAX__", "0xffffffffffffffffUL");
    def("__SIG_ATOMIC_MAX__", "0x7fffffff");
    def("__SIG_ATOMIC_MIN__", "(-__SIG_ATOMIC_MAX__ - 1)");
    def("__WINT_MAX__", "0xffffffffU");
    def("__WINT_MIN__", "0U");
    def("__SIZE_TYPE__", "long unsigned int");
    def("__PTRDIFF_TYPE__", "long int");
    def("__INTMAX_TYPE__", "long int");
    def("__UINTMAX_TYPE__", "long unsigned int");
    def("__INTPTR_TYPE__", "long int");
    def("__UINTPTR_TYPE__", "long unsigned int");
    def("__WINT_TYPE__", "unsigned int");
    def("__SIG_ATOMIC_TYPE__", "int");
    def("__CHAR16_TYPE__", "short unsigned int");
    def("__CHAR32_TYPE__", "unsigned int");
    if target.wchar_is_signed() {
        def("__WCHAR_TYPE__", "int");
        def("__WCHAR_MAX__", "0x7fffffff");
        def("__WCHAR_MIN__", "(-__WCHAR_MAX__ - 1)");
    } else {
        def("__WCHAR_TYPE__", "unsigned int");
        def("__WCHAR_MAX__", "0xffffffffU");
        def("__WCHAR_MIN__", "0U");
    }
    for (bits, sty, uty, ssuf, usuf) in [
        (8, "signed char", "unsigned char", "", ""),
        (16, "short int", "short unsigned int", "", ""),
        (32, "int", "unsigned int", "", "U"),
        (64, "long int", "long unsigned int", "L", "UL"),
    ] {
        def(&format!("__INT{bits}_TYPE__"), sty);
        def(&format!("__UINT{bits}_TYPE__"), uty);
        let smax = (1u64 << (bits - 1)) - 1;
        let umax = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        def(&format!("__INT{bits}_MAX__"), &format!("{smax:#x}{ssuf}"));
        def(&format!("__UINT{bits}_MAX__"), &format!("{umax:#x}{usuf}"));
        let cat = |suf: &str| {
            if suf.is_empty() {
                "c".to_string()
            } else {
                format!("c ## {suf}")
            }
        };
        def(&format!("__INT{bits}_C(c)"), &cat(ssuf));
        def(&format!("__UINT{bits}_C(c)"), &cat(usuf));
    }
    def("__INTMAX_C(c)", "c ## L");
    def("__UINTMAX_C(c)", "c ## UL");
    // gcc's <stdint.h>/<stdatomic.h> types and the rest of
    // `gcc -dM -E - </dev/null` that applies (glibc's int_fast16_t and
    // wider are `long`; RISC-V has no byte or halfword atomics).
    for (bits, sty, uty, smax, umax, fsty, futy, fsmax, fumax, fwidth) in [
        (
            8,
            "signed char",
            "unsigned char",
            "0x7f",
            "0xff",
            "signed char",
            "unsigned char",
            "0x7f",
            "0xff",
            8,
        ),
        (
            16,
            "short int",
            "short unsigned int",
            "0x7fff",
            "0xffff",
            "long int",
            "long unsigned int",
            "0x7fffffffffffffffL",
            "0xffffffffffffffffUL",
            64,
        ),
        (
            32,
            "int",
            "unsigned int",
            "0x7fffffff",
            "0xffffffffU",
            "long int",
            "long unsigned int",
            "0x7fffffffffffffffL",
            "0xffffffffffffffffUL",
            64,
        ),
        (
            64,
            "long int",
            "long unsigned int",
            "0x7fffffffffffffffL",
            "0xffffffffffffffffUL",
            "long int",
            "long unsigned int",
            "0x7fffffffffffffffL",
            "0xffffffffffffffffUL",
            64,
        ),
    ] {
        def(&format!("__INT_LEAST{bits}_TYPE__"), sty);
        def(&format!("__UINT_LEAST{bits}_TYPE__"), uty);
        def(&format!("__INT_LEAST{bits}_MAX__"), smax);
        def(&format!("__UINT_LEAST{bits}_MAX__"), umax);
        def(&format!("__INT_LEAST{bits}_WIDTH__"), &bits.to_string());
        def(&format!("__INT_FAST{bits}_TYPE__"), fsty);
        def(&format!("__UINT_FAST{bits}_TYPE__"), futy);
        def(&format!("__INT_FAST{bits}_MAX__"), fsmax);
        def(&format!("__UINT_FAST{bits}_MAX__"), fumax);
        def(&format!("__INT_FAST{bits}_WIDTH__"), &fwidth.to_string());
    }
    let small_lock_free = match target {
        Target::X86_64 | Target::Aarch64 => "2",
        Target::Riscv64 => "1",
    };
    for (name, lock_free) in [
        ("BOOL", small_lock_free),
        ("CHAR", small_lock_free),
        ("CHAR16_T", small_lock_free),
        ("CHAR32_T", "2"),
        ("WCHAR_T", "2"),
        ("SHORT", small_lock_free),
        ("INT", "2"),
        ("LONG", "2"),
        ("LLONG", "2"),
        ("POINTER", "2"),
    ] {
        def(&format!("__GCC_ATOMIC_{name}_LOCK_FREE"), lock_free);
    }
    def("__GCC_ATOMIC_TEST_AND_SET_TRUEVAL", "1");
    def("__GCC_IEC_559", "2");
    def("__FLT_IS_IEC_60559__", "2");
    def("__DBL_IS_IEC_60559__", "2");
    def("__LDBL_IS_IEC_60559__", "2");
    def("__FLT_EVAL_METHOD_TS_18661_3__", "0");
    def("__FINITE_MATH_ONLY__", "0");
    def("__GCC_CONSTRUCTIVE_SIZE", "64");
    def("__GCC_DESTRUCTIVE_SIZE", "64");
    def("__GNUC_EXECUTION_CHARSET_NAME", "\"UTF-8\"");
    def("__GNUC_WIDE_EXECUTION_CHARSET_NAME", "\"UTF-32LE\"");
    // What gcc's implicit <stdc-predef.h> adds.
    def("__STDC_ISO_10646__", "201706L");
    def("__STDC_IEC_60559_BFP__", "201404L");
    // Floating point (float.h reads these).
    def("__FLT_EVAL_METHOD__", "0");
    def("__FLT_RADIX__", "2");
    def(
        "__DECIMAL_DIG__",
        match target.long_double() {
            LongDoubleFormat::X87 => "21",
            LongDoubleFormat::Binary128 => "36",
        },
    );
    for (p, mant, dig, min_exp, max_exp, min10, max10, max, min, eps, denorm, suffix) in [
        (
            "FLT",
            24,
            6,
            -125,
            128,
            -37,
            38,
            "3.40282346638528859811704183484516925e+38",
            "1.17549435082228750796873653722224568e-38",
            "1.19209289550781250000000000000000000e-7",
            "1.40129846432481707092372958328991613e-45",
            "F",
        ),
        (
            "DBL",
            53,
            15,
            -1021,
            1024,
            -307,
            308,
            "1.79769313486231570814527423731704357e+308",
            "2.22507385850720138309023271733240406e-308",
            "2.22044604925031308084726333618164062e-16",
            "4.94065645841246544176568792868221372e-324",
            "",
        ),
    ] {
        float_macros(
            &mut def, p, mant, dig, min_exp, max_exp, min10, max10, max, min, eps, denorm, suffix,
        );
    }
    match target.long_double() {
        LongDoubleFormat::X87 => float_macros(
            &mut def,
            "LDBL",
            64,
            18,
            -16381,
            16384,
            -4931,
            4932,
            "1.18973149535723176502126385303097021e+4932",
            "3.36210314311209350626267781732175260e-4932",
            "1.08420217248550443400745280086994171e-19",
            "3.64519953188247460252840593361941982e-4951",
            "L",
        ),
        LongDoubleFormat::Binary128 => float_macros(
            &mut def,
            "LDBL",
            113,
            33,
            -16381,
            16384,
            -4931,
            4932,
            "1.18973149535723176508575932662800702e+4932",
            "3.36210314311209350626267781732175260e-4932",
            "1.92592994438723585305597794258492732e-34",
            "6.47517511943802511092443895822764655e-4966",
            "L",
        ),
    }
    // Architecture.
    match target {
        Target::X86_64 => {
            for m in [
                "__x86_64",
                target.arch_macro(),
                "__amd64",
                "__amd64__",
                "__SSE__",
                "__SSE2__",
                "__SSE_MATH__",
            ] {
                def(m, "1");
            }
            def("__SSE2_MATH__", "1");
            def("__MMX__", "1");
            def("__FXSR__", "1");
            def("__k8", "1");
            def("__k8__", "1");
            def("__code_model_small__", "1");
            def("__SIZEOF_FLOAT80__", "16");
            def("__SIZEOF_FLOAT128__", "16");
        }
        Target::Aarch64 => {
            def(target.arch_macro(), "1");
            def("__AARCH64EL__", "1");
            def("__ARM_64BIT_STATE", "1");
            def("__ARM_ARCH", "8");
            def("__ARM_ARCH_8A", "1");
            def("__ARM_ARCH_PROFILE", "65");
            def("__ARM_PCS_AAPCS64", "1");
            def("__ARM_FP", "14");
            def("__ARM_ALIGN_MAX_STACK_PWR", "16");
            def("__ARM_SIZEOF_WCHAR_T", "4");
            def("__ARM_SIZEOF_MINIMAL_ENUM", "4");
            def("__AARCH64_CMODEL_SMALL__", "1");
        }
        Target::Riscv64 => {
            def(target.arch_macro(), "1");
            def("__riscv_xlen", "64");
            def("__riscv_flen", "64");
            def("__riscv_float_abi_double", "1");
            def("__riscv_mul", "1");
            def("__riscv_div", "1");
            def("__riscv_muldiv", "1");
            def("__riscv_atomic", "1");
            def("__riscv_fdiv", "1");
            def("__riscv_fsqrt", "1");
            def("__riscv_compressed", "1");
            def("__riscv_cmodel_medany", "1");
        }
    }
    if !target.char_is_signed() {
        def("__CHAR_UNSIGNED__", "1");
    }
    s
}

#[allow(clippy::too_many_arguments)]
fn float_macros(
    def: &mut impl FnMut(&str, &str),
    p: &str,
    mant: u32,
    dig: u32,
    min_exp: i32,
    max_exp: i32,
    min10: i32,
    max10: i32,
    max: &str,
    min: &str,
    eps: &str,
    denorm: &str,
    suffix: &str,
) {
    def(&format!("__{p}_MANT_DIG__"), &mant.to_string());
    def(&format!("__{p}_DIG__"), &dig.to_string());
    def(&format!("__{p}_MIN_EXP__"), &format!("({min_exp})"));
    def(&format!("__{p}_MAX_EXP__"), &max_exp.to_string());
    def(&format!("__{p}_MIN_10_EXP__"), &format!("({min10})"));
    def(&format!("__{p}_MAX_10_EXP__"), &max10.to_string());
    def(
        &format!("__{p}_DECIMAL_DIG__"),
        &(mant as f64 * std::f64::consts::LOG10_2 + 2.0).floor().to_string(),
    );
    def(&format!("__{p}_MAX__"), &format!("{max}{suffix}"));
    def(&format!("__{p}_NORM_MAX__"), &format!("{max}{suffix}"));
    def(&format!("__{p}_MIN__"), &format!("{min}{suffix}"));
    def(&format!("__{p}_EPSILON__"), &format!("{eps}{suffix}"));
    def(&format!("__{p}_DENORM_MIN__"), &format!("{denorm}{suffix}"));
    def(&format!("__{p}_HAS_DENORM__"), "1");
    def(&format!("__{p}_HAS_INFINITY__"), "1");
    def(&format!("__{p}_HAS_QUIET_NAN__"), "1");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros_follow_the_target_table() {
        for t in Target::ALL {
            let m = predefined_macros(t);
            assert!(m.contains(&format!("#define {} 1\n", t.arch_macro())), "{t}");
            assert_eq!(m.contains("#define __CHAR_UNSIGNED__ 1\n"), !t.char_is_signed(), "{t}");
            let mant = format!("#define __LDBL_MANT_DIG__ {}\n", t.long_double().mant_dig());
            assert!(m.contains(&mant), "{t}");
            let wchar = if t.wchar_is_signed() { "int" } else { "unsigned int" };
            assert!(m.contains(&format!("#define __WCHAR_TYPE__ {wchar}\n")), "{t}");
        }
        assert!(predefined_macros(Target::Riscv64).contains("#define __riscv_xlen 64\n"));
        assert!(predefined_macros(Target::X86_64).contains("#define __UINT64_C(c) c ## UL\n"));
        assert!(predefined_macros(Target::X86_64).contains("#define __DBL_DECIMAL_DIG__ 17\n"));
    }
}
