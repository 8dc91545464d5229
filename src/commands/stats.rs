use crate::cli::StatsArgs;
use crate::library::{self, Library};
use crate::workflow::stats;
use anyhow::Result;

pub fn run(args: &StatsArgs) -> Result<()> {
    let dir = library::resolve_dir(args.library.library.as_deref())?;
    let lib = Library::open_read(&dir)?;
    let s = stats::collect(&lib)?;
    if args.json {
        println!("{}", serde_json::to_string(&s)?);
        return Ok(());
    }
    println!("library   {}", s.library);
    println!("papers    {}", s.papers);
    println!("versions  {}", s.versions);
    match (&s.first_day, &s.last_day) {
        (Some(a), Some(b)) => println!("days      {} ({a} to {b})", s.days),
        _ => println!("days      0"),
    }
    for m in &s.models {
        println!("vectors   {} for {}", m.vectors, m.model);
        println!("index     {}", m.index);
    }
    println!("words     {}", s.lexical);
    for p in &s.profiles {
        println!(
            "profile   {}: {} seeds, {} liked, {} not interested, {} filters",
            p.profile, p.seeds, p.liked, p.not_interested, p.filters
        );
    }
    println!("disk      {}", crate::library::human_bytes(s.disk_bytes));
    Ok(())
}
