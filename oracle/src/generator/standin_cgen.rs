//! A small private stand-in for our C generator (`oracle::cgen`, written on
//! its own branch), so campaigns with `--generator cgen` work meanwhile.
//!
//! Programs are UB-free by construction: every variable is unsigned (wrapping
//! arithmetic), shift counts are masked, divisors are forced odd, and loops
//! have constant trip counts. They stress what mem2reg and phi elimination
//! must get right: many scalar locals of mixed widths, swaps and rotations in
//! loops (the lost-copy and swap problems), diamonds, switches, and a volatile
//! and an address-taken local that must stay in memory. The program prints
//! one checksum of all its state.

use std::fmt::Write;

const TYPES: [&str; 4] = ["uint8_t", "uint16_t", "uint32_t", "uint64_t"];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The C program for `seed`.
pub fn generate(seed: u64) -> String {
    let mut r = Rng(seed);
    let nvars = 4 + r.below(6) as usize;
    let mut s = String::new();
    let _ = writeln!(s, "/* stand-in cgen program, seed {seed} */");
    s.push_str("#include <stdint.h>\n#include <stdio.h>\n\n");
    s.push_str("static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }\n\n");
    s.push_str("static void bump(uint32_t *p) { *p += 3; }\n\n");
    s.push_str("int main(void) {\n");
    for v in 0..nvars {
        let ty = TYPES[r.below(4) as usize];
        let _ = writeln!(s, "    {ty} v{v} = ({ty}){};", r.next() % 100_000);
    }
    s.push_str("    volatile uint32_t vol = 7;\n    uint32_t addr = 11;\n    uint64_t t;\n");
    let loops = 1 + r.below(3);
    for l in 0..loops {
        let _ = writeln!(s, "    for (uint32_t i{l} = 0; i{l} < {}; i{l}++) {{", 2 + r.below(20));
        for _ in 0..(2 + r.below(6)) {
            statement(&mut r, &mut s, nvars, &format!("i{l}"));
        }
        s.push_str("    }\n");
    }
    s.push_str("    bump(&addr);\n    uint64_t h = 0xcbf29ce484222325ull;\n");
    for v in 0..nvars {
        let _ = writeln!(s, "    h = mix(h, v{v});");
    }
    s.push_str("    h = mix(h, vol);\n    h = mix(h, addr);\n");
    s.push_str("    printf(\"checksum = %llx\\n\", (unsigned long long)h);\n    return 0;\n}\n");
    s
}

fn statement(r: &mut Rng, s: &mut String, n: usize, iv: &str) {
    let a = r.below(n as u64);
    // Distinct operands: `x < x` and `x = x` draw warnings and test nothing.
    let b = (a + 1 + r.below(n as u64 - 1)) % n as u64;
    let c = r.below(n as u64);
    match r.below(7) {
        0 => {
            let _ = writeln!(s, "        t = v{a}; v{a} = v{b}; v{b} = t;");
        }
        1 => {
            let _ = writeln!(s, "        t = v{a}; v{a} = v{b}; v{b} = v{c}; v{c} = t;");
        }
        2 => {
            let op = ["+", "-", "^", "&", "|", "*"][r.below(6) as usize];
            let _ = writeln!(s, "        v{a} = (uint64_t)v{b} {op} ((uint64_t)v{c} + {iv});");
        }
        3 => {
            let _ = writeln!(
                s,
                "        if (v{a} < v{b}) {{ v{c} += v{a}; }} else {{ t = v{b}; v{b} = v{c}; v{c} = t; }}"
            );
        }
        4 => {
            let _ = writeln!(s, "        switch ((v{a} + {iv}) & 3) {{");
            for k in 0..4 {
                let _ = writeln!(
                    s,
                    "        case {k}: v{b} = (uint64_t)v{b} * {} + v{c}; break;",
                    2 * r.below(9) + 1
                );
            }
            s.push_str("        }\n");
        }
        5 => {
            let _ = writeln!(
                s,
                "        v{a} = ((uint64_t)v{b} << ({iv} & 7)) / (((uint64_t)v{c} & 0xff) | 1);"
            );
        }
        _ => {
            let _ = writeln!(s, "        vol = vol + (uint32_t)v{a}; addr ^= (uint32_t)v{b};");
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn programs_are_deterministic_and_vary() {
        assert_eq!(super::generate(5), super::generate(5));
        assert_ne!(super::generate(5), super::generate(6));
    }

    /// The programs are defined C: gcc's warnings and UBSan/ASan find nothing,
    /// and -O0 and -O2 print the same checksum.
    #[test]
    fn programs_are_free_of_undefined_behaviour() {
        let dir = tempfile::tempdir().unwrap();
        for seed in 0..6 {
            let src = dir.path().join(format!("p{seed}.c"));
            std::fs::write(&src, super::generate(seed)).unwrap();
            let mut outputs = Vec::new();
            for flags in [
                &["-O0", "-fsanitize=undefined,address", "-fno-sanitize-recover=all"][..],
                &["-O2"][..],
            ] {
                let bin = dir.path().join(format!("p{seed}{}", outputs.len()));
                let cc = std::process::Command::new("gcc")
                    .args(flags)
                    .args(["-Wall", "-Wextra", "-Werror", "-o"])
                    .arg(&bin)
                    .arg(&src)
                    .output()
                    .unwrap();
                assert!(
                    cc.status.success(),
                    "seed {seed}: {}",
                    String::from_utf8_lossy(&cc.stderr)
                );
                let run = std::process::Command::new(&bin).output().unwrap();
                assert!(
                    run.status.success(),
                    "seed {seed}: {}",
                    String::from_utf8_lossy(&run.stderr)
                );
                outputs.push(run.stdout);
            }
            assert_eq!(outputs[0], outputs[1], "seed {seed}");
            assert!(outputs[0].starts_with(b"checksum = "));
        }
    }
}
