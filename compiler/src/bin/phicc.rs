//! `phicc`: the C compiler's command line (see `phicc::driver`).

fn main() {
    let status = phicc::driver::main(std::env::args_os().collect());
    std::process::exit(status);
}
