//! placeholder
#[derive(clap::Args, Debug)]
pub struct Args {}
pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("not yet")
}
