//! How `fetch`, `daily --fetch` and `seed add --fetch` reach arXiv: the
//! endpoints and how gently (the command line flattens [`FetchOpts`]).

/// Where and how gently `fetch` and `daily --fetch` download.
#[derive(Debug, Clone, clap::Args)]
pub struct FetchOpts {
    /// One root serving /rss/CAT, /list/CAT/new, /api/query and /oai instead of
    /// arXiv's hosts (a mirror or a test server); else PAPERSCOUT_RSS_URL,
    /// PAPERSCOUT_LIST_URL, PAPERSCOUT_API_URL and PAPERSCOUT_OAI_URL override
    /// each default.
    #[arg(long, env = "PAPERSCOUT_BASE_URL", value_name = "URL")]
    pub base_url: Option<String>,
    /// Seconds before one request is given up.
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    pub timeout: f64,
    /// Retries after HTTP 429 or 5xx, with exponential backoff.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub retries: u32,
    /// Least milliseconds between two requests (arXiv asks for 3000; lower only for tests).
    #[arg(long, default_value_t = 3000, hide = true, env = "PAPERSCOUT_FETCH_INTERVAL_MS")]
    pub interval_ms: u64,
    /// First backoff in milliseconds; it doubles on each retry.
    #[arg(long, default_value_t = 5000, hide = true, env = "PAPERSCOUT_FETCH_BACKOFF_MS")]
    pub backoff_ms: u64,
}

impl FetchOpts {
    /// The options as the command line would give them with no flag: the
    /// defaults, and the environment's overrides (`PAPERSCOUT_BASE_URL` …).
    /// The server fetches with these.
    pub fn from_env() -> FetchOpts {
        use clap::{Args, FromArgMatches};
        let cmd = FetchOpts::augment_args(clap::Command::new("fetch"));
        // With no arguments every field has its default, so this cannot fail;
        // should clap ever say otherwise, it says so and exits.
        FetchOpts::from_arg_matches(&cmd.get_matches_from(["fetch"])).unwrap_or_else(|e| e.exit())
    }
}
