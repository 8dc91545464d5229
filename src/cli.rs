//! Command-line definitions; the work they trigger lives in `commands`.

use crate::delivery::DigestFormat;
use crate::embed::ModelArgs;
use crate::fetch::FetchOpts;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::path::PathBuf;

mod eval;
pub use eval::{EvalArgs, EvalBenchmark, EvalCsfcubeArgs, EvalHistoryArgs, EvalTldrArgs};

/// Flags that tune the engine rather than say what to do: left out of
/// `--help`, so that it shows the options people use, and listed by
/// `--help-all` under a heading of their own. `embed` keeps them in view:
/// for it they are the point.
const TUNING: &[&str] =
    &["device", "batch_tokens", "threads", "backend", "precision", "max_tokens", "method", "base_url", "timeout", "retries"];
const TUNING_HEADING: &str = "Engine tuning";

/// The command line, read from `args` (the program's name first);
/// `--help-all` is `--help` with the engine tuning flags shown. On a
/// mistake, or after printing help, the process ends as clap ends it.
pub fn parse_from(args: impl IntoIterator<Item = OsString>) -> Cli {
    let args: Vec<OsString> = args.into_iter().collect();
    let all = args.iter().skip(1).any(|a| a == "--help-all");
    let args = args.into_iter().map(|a| if a == "--help-all" { OsString::from("--help") } else { a });
    let matches = command(all).get_matches_from(args);
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// clap's command for [`Cli`] with the engine tuning flags hidden (or, for
/// `--help-all`, shown at the end).
pub fn command(all: bool) -> clap::Command {
    fn tune(cmd: clap::Command, all: bool) -> clap::Command {
        if cmd.get_name() == "embed" {
            return cmd;
        }
        let ids: Vec<String> = cmd.get_arguments().map(|a| a.get_id().to_string()).filter(|id| TUNING.contains(&id.as_str())).collect();
        let mut cmd = cmd.mut_subcommands(|sub| tune(sub, all));
        for id in &ids {
            cmd = cmd.mut_arg(id, |a| a.hide(!all).help_heading(TUNING_HEADING));
        }
        if !ids.is_empty() && !all {
            cmd = cmd.after_help("Engine tuning (model device and batches, ranking method, network): --help-all");
        }
        cmd
    }
    tune(Cli::command(), all)
}

#[derive(Debug, Parser)]
#[command(name = "paperscout", version, about = "Which of today's arXiv papers to read")]
pub struct Cli {
    /// Say more about what is happening (chosen model, timings) on stderr.
    #[arg(short, long, global = true)]
    pub verbose: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read listings in any supported format and print the papers found.
    Parse(ParseArgs),
    /// Add an `embedding` to each JSON line that has a `text` field.
    Embed(EmbedArgs),
    /// Add listings to the library and embed what is new.
    Ingest(IngestArgs),
    /// Write the library's papers and vectors to a file (Parquet).
    Export(ExportArgs),
    /// Papers like one in the library, or like a text.
    Like(LikeArgs),
    /// Find papers by words ("quoted phrases"), an author's name, an arXiv id or meaning.
    Search(SearchArgs),
    /// What the library holds.
    Stats(StatsArgs),
    /// Check the library's database and derived files; rebuild what is stale.
    Doctor(DoctorArgs),
    /// Measure ranking quality: on the CSFCube benchmark or by replaying the library's history.
    Eval(EvalArgs),
    /// Manage the seed papers a profile is built from.
    Seed(SeedArgs),
    /// Rank a day's listing against a profile: what to read first, and why.
    Daily(Box<DailyArgs>),
    /// Download today's announcements for arXiv categories (RSS, else the listing page).
    Fetch(FetchArgs),
    /// Rate a paper for a profile: + liked, - not interested, 0 clears.
    Rate(RateArgs),
    /// Keyword, author and category filters of a profile.
    Filter(FilterArgs),
    /// Read, rate and search in the browser (a local web server).
    Serve(ServeArgs),
    /// Accounts of a library shared by several people (for `serve`).
    User(UserArgs),
}

/// Whose profile a command acts on, in a library with accounts.
#[derive(Debug, Clone, clap::Args)]
pub struct OwnerArgs {
    /// The account whose profile this is (needed when a library has
    /// several; with one, it is that one's).
    #[arg(long, env = "PAPERSCOUT_USER", value_name = "NAME", global = true)]
    pub user: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct UserArgs {
    #[command(flatten)]
    pub library: LibraryArgs,
    #[command(subcommand)]
    pub action: UserAction,
}

#[derive(Debug, Subcommand)]
pub enum UserAction {
    /// Add an account. The first account takes over the profiles the library
    /// already has.
    Add {
        name: String,
        /// Read the password from the first line of this file instead of
        /// asking for it.
        #[arg(long, value_name = "FILE")]
        password_file: Option<PathBuf>,
    },
    /// List the accounts.
    List {
        /// One JSON object per account.
        #[arg(long)]
        json: bool,
    },
    /// Remove an account, its sessions and its profiles' seeds, ratings and filters.
    Rm { name: String },
    /// Set an account's password; its browser sessions end.
    Passwd {
        name: String,
        #[arg(long, value_name = "FILE")]
        password_file: Option<PathBuf>,
    },
    /// The key of an account's feed URL. Only its hash is kept, so a key is
    /// shown once, when made: --rotate makes a new one (the old URL ends).
    FeedKey {
        name: String,
        /// Make a new key and show it.
        #[arg(long)]
        rotate: bool,
    },
}

#[derive(Debug, clap::Args)]
pub struct RateArgs {
    /// An arXiv id in the library (with or without version).
    pub id: String,
    /// `+` (liked), `-` (not interested) or `0` (clear the rating).
    #[arg(allow_hyphen_values = true)]
    pub rating: String,
    /// The profile the rating is for (`seed list` shows its seeds).
    #[arg(long, default_value = "default")]
    pub profile: String,
    #[command(flatten)]
    pub owner: OwnerArgs,
    #[command(flatten)]
    pub library: LibraryArgs,
}

#[derive(Debug, clap::Args)]
pub struct FilterArgs {
    /// The profile whose filters these are.
    #[arg(long, default_value = "default", global = true)]
    pub profile: String,
    #[command(flatten)]
    pub owner: OwnerArgs,
    #[command(flatten)]
    pub library: LibraryArgs,
    #[command(subcommand)]
    pub action: FilterAction,
}

#[derive(Debug, Subcommand)]
pub enum FilterAction {
    /// Add rules: `include`/`exclude` keywords (whole words in any case and any form: diffusion also matches "diffuse"), a pinned
    /// `author`, `allow`/`deny` categories.
    Add {
        #[arg(value_enum)]
        rule: crate::profile::filters::Rule,
        #[arg(required = true)]
        values: Vec<String>,
    },
    /// Remove rules.
    Rm {
        #[arg(value_enum)]
        rule: crate::profile::filters::Rule,
        #[arg(required = true)]
        values: Vec<String>,
    },
    /// List the profile's rules.
    List {
        /// One JSON object per rule.
        #[arg(long)]
        json: bool,
    },
    /// Where the profile's digest stops: strict (strong picks only), usual
    /// (worth a look and strong), loose (the top whatever its strength, each
    /// pick marked), or one step stricter or looser. Without one, says where
    /// it is.
    Bar {
        #[arg(value_enum)]
        to: Option<BarMove>,
    },
}

/// A bar to set, or a step to move it.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum BarMove {
    Strict,
    Usual,
    Loose,
    Stricter,
    Looser,
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on. Anything but loopback lets other machines read
    /// and rate: only when you mean it.
    #[arg(long, default_value = "127.0.0.1:8180", value_name = "HOST:PORT")]
    pub addr: String,
    /// The profile pages open with (each page can switch).
    #[arg(long, default_value = "default")]
    pub profile: String,
    /// Another name this server answers to (repeatable): the name users
    /// type, or the one a reverse proxy passes on. Loopback names and the
    /// bound address need none.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
    /// Ask for a sign-in on loopback too (needs an account: `paperscout user add`).
    /// A library with accounts always asks.
    #[arg(long)]
    pub login: bool,
    /// Without accounts, answer any local user, not only the one who holds
    /// the key this server prints (other users of this machine could then
    /// read and change your library).
    #[arg(long, conflicts_with = "login")]
    pub no_token: bool,
    /// Keep the launch key in this file (made, readable by you alone, when
    /// missing), so that the printed address, bookmarks and a feed reader's
    /// URL stay good across restarts.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["login", "no_token"])]
    pub token_file: Option<PathBuf>,
    /// Serve HTTPS with this PEM certificate chain (and --tls-key).
    #[arg(long, value_name = "PEM", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The certificate's PEM private key.
    #[arg(long, value_name = "PEM", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Seconds a client has to send a request's head (or a body, or to
    /// finish a TLS handshake); also how long an idle connection stays open.
    #[arg(long, default_value_t = 10, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=300))]
    pub client_timeout: u64,
    /// Connections open at once; more wait until one closes.
    #[arg(long, default_value_t = 512, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_connections: u64,
    /// Deliver each reader's digest every day at this time (HH:MM, this
    /// machine's time zone; TZ=Europe/Berlin chooses one): fetch --fetch's
    /// categories once, then rank each reader's profile and send it where
    /// they asked on Settings (e-mail, Slack, Discord, Matrix, ntfy). A day
    /// reaches a reader once, across restarts. Set it after arXiv's
    /// announcement (20:00 US Eastern).
    #[arg(long, value_name = "HH:MM")]
    pub morning: Option<String>,
    /// arXiv categories the morning fetches first, e.g. cs.LG,cs.CL.
    #[arg(long = "fetch", value_name = "CATEGORY", value_delimiter = ',', requires = "morning")]
    pub morning_fetch: Vec<String>,
    #[command(flatten)]
    pub fetch_opts: FetchOpts,
    /// This server's address as readers reach it (https://lab.example:8180):
    /// the digests' 👍/👎 links lead there.
    #[arg(long, env = "PAPERSCOUT_LINK_BASE", value_name = "URL", requires = "morning")]
    pub link_base: Option<String>,
    /// An internal host readers' webhooks may reach (repeatable), HOST or
    /// HOST:PORT (that port alone), also over plain http://: a lab's own
    /// Mattermost, say. Others get only public https:// addresses: never
    /// this machine, its network or link-local ones.
    #[arg(long = "allow-webhook-host", value_name = "HOST")]
    pub allow_webhook_hosts: Vec<String>,
    /// The one host (NAME or NAME:PORT) the server's own chat token,
    /// PAPERSCOUT_POST_TOKEN, is sent to: the lab's Matrix homeserver (a
    /// room's send endpoint) or ntfy server (a topic). Readers' webhooks
    /// elsewhere never get it; a reader who needs a token gives their own
    /// on Settings.
    #[arg(long, value_name = "HOST", requires = "morning")]
    pub post_token_host: Option<String>,
    /// Print what each reader would receive this morning, send nothing, and exit.
    #[arg(long, requires = "morning")]
    pub dry_run: bool,
    #[command(flatten)]
    pub library: LibraryArgs,
    #[command(flatten)]
    pub model: ModelArgs,
}

#[derive(Debug, clap::Args)]
pub struct FetchArgs {
    /// arXiv categories, e.g. cs.DC cs.LG astro-ph.GA.
    #[arg(required_unless_present = "oai", value_name = "CATEGORY")]
    pub categories: Vec<String>,
    /// Harvest every paper of an arXiv OAI set (cs, math, physics:hep-th)
    /// first listed or changed from FROM to UNTIL (days, YYYY-MM-DD) with
    /// OAI-PMH, page by page: a way to backfill a library over any range.
    #[arg(long, num_args = 3, value_names = ["FROM", "UNTIL", "SET"], conflicts_with = "categories")]
    pub oai: Option<Vec<String>>,
    /// Add the papers to the library and embed what is new.
    #[arg(long)]
    pub ingest: bool,
    /// Write the papers as JSON lines to this file (instead of a table on standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub fetch: FetchOpts,
    #[command(flatten)]
    pub library: LibraryArgs,
    #[command(flatten)]
    pub model: ModelArgs,
}

#[derive(Debug, clap::Args)]
pub struct SeedArgs {
    /// Profile name: several profiles can live in one library.
    #[arg(long, default_value = "default", global = true)]
    pub profile: String,
    #[command(flatten)]
    pub owner: OwnerArgs,
    #[command(flatten)]
    pub library: LibraryArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(subcommand)]
    pub action: SeedAction,
}

#[derive(Debug, Subcommand)]
pub enum SeedAction {
    /// Add seeds: arXiv ids, BibTeX or CSL-JSON exports, files of ids, or --text.
    Add {
        /// arXiv ids (in the library, or with --title) or files (.bib, CSL-JSON, one id per line).
        #[arg(required_unless_present = "text")]
        items: Vec<String>,
        /// Free text to use as a seed (a description of what you want to read).
        #[arg(long)]
        text: Option<String>,
        /// The title of an id that is not in the library.
        #[arg(long)]
        title: Option<String>,
        /// Its abstract.
        #[arg(long = "abstract", requires = "title")]
        abstract_text: Option<String>,
        /// Papers you do not want more of.
        #[arg(long)]
        negative: bool,
        /// How much this seed counts relative to others.
        #[arg(long, default_value_t = 1.0)]
        weight: f32,
        /// Look up ids the library lacks on arXiv (the API) and store them first.
        #[arg(long, conflicts_with = "title")]
        fetch: bool,
        #[command(flatten)]
        fetch_opts: FetchOpts,
    },
    /// List a profile's seeds.
    List {
        /// One JSON object per seed (the same as --format json).
        #[arg(long, conflicts_with = "format")]
        json: bool,
        /// table, json, or bibtex/ris to take the seeds into a reference manager.
        #[arg(long, value_enum, default_value_t = SeedFormat::Table)]
        format: SeedFormat,
    },
    /// Keep the profile's seeds in step with a reference manager's library.
    Sync {
        #[command(subcommand)]
        source: SyncSource,
    },
    /// Change how much seeds count.
    Weight {
        #[arg(required = true)]
        keys: Vec<String>,
        /// The new weight (1 is the default).
        #[arg(long)]
        weight: f32,
    },
    /// Move seeds (and their ratings) to another profile.
    Move {
        #[arg(required = true)]
        keys: Vec<String>,
        /// The profile they go to.
        #[arg(long)]
        to: String,
    },
    /// Remove seeds by id (or the text: key shown by `seed list`).
    Rm {
        #[arg(required = true)]
        keys: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum SyncSource {
    /// Zotero's local database, read while Zotero may be running: items added
    /// there become seeds, items removed there stop being seeds.
    Zotero(ZoteroArgs),
}

#[derive(Debug, clap::Args)]
pub struct ZoteroArgs {
    /// zotero.sqlite (default: ~/Zotero/zotero.sqlite).
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Only items in collections matching these globs, by path (`Reading/*`,
    /// `**/LLM`); a glob starting with `!` leaves a collection's items out.
    #[arg(long = "collection", value_name = "GLOB")]
    pub collections: Vec<String>,
    /// Say what would change, change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeedFormat {
    Table,
    Json,
    Bibtex,
    Ris,
}

#[derive(Debug, clap::Args)]
pub struct DailyArgs {
    /// Listing files to ingest first; the day ranked is then theirs.
    pub files: Vec<PathBuf>,
    /// Fetch today's announcements for these categories first (comma-separated
    /// or repeated), ingest them and rank that day.
    #[arg(long, value_name = "CATEGORY", num_args = 1.., value_delimiter = ',', conflicts_with = "files")]
    pub fetch: Vec<String>,
    #[command(flatten)]
    pub fetch_opts: FetchOpts,
    /// Rank this day's listing (YYYY-MM-DD) instead of the newest.
    #[arg(long, conflicts_with = "since")]
    pub date: Option<String>,
    /// Rank every listing day from this one (YYYY-MM-DD) to the newest
    /// together, each paper once (its first listing): a weekly read.
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// The profile to rank for: its seeds, ratings and filters.
    #[arg(long, default_value = "default")]
    pub profile: String,
    #[command(flatten)]
    pub owner: OwnerArgs,
    /// How many papers to show at most: the picks above the profile's bar
    /// lead (at least 3), and the rest are counted.
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Show the top whatever the bar, each pick marked strong, worth a look
    /// or weak.
    #[arg(long)]
    pub all: bool,
    /// The bar for this run (the profile keeps its own: `filter bar`).
    #[arg(long, value_enum)]
    pub bar: Option<crate::rank::Bar>,
    /// Hide papers scoring below this.
    #[arg(long)]
    pub min_score: Option<f32>,
    /// Also list this many papers nearest the profile's decision boundary,
    /// where a rating teaches the ranking most.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub unsure: usize,
    /// Hide papers already rated or opened that come back as a replacement
    /// or cross-list (they are marked `seen` otherwise).
    #[arg(long)]
    pub unseen: bool,
    /// List what the profile's filters hid, and by which rule.
    #[arg(long)]
    pub show_filtered: bool,
    /// Which entries to rank: any of new, cross, replaced.
    #[arg(long, value_delimiter = ',', default_value = "new,cross")]
    pub include: Vec<crate::paper::Kind>,
    /// Scoring method.
    #[arg(long, value_enum, default_value_t = crate::rank::DEFAULT_METHOD)]
    pub method: crate::rank::Method,
    #[arg(long, value_enum, default_value_t = DigestFormat::Table)]
    pub format: DigestFormat,
    /// Write the digest to this file instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Send the digest (text and HTML) to these addresses by SMTP; it is then
    /// not printed (--out still writes it).
    #[arg(long, value_name = "ADDR")]
    pub mail_to: Vec<String>,
    /// The SMTP server: smtps://HOST[:465] (TLS) or smtp://HOST:587?tls=required
    /// (STARTTLS). The user name and password come from PAPERSCOUT_SMTP_USER and
    /// PAPERSCOUT_SMTP_PASSWORD (or a file named by PAPERSCOUT_SMTP_PASSWORD_FILE),
    /// never from the command line.
    #[arg(long, env = "PAPERSCOUT_SMTP", value_name = "URL")]
    pub smtp: Option<String>,
    /// The sender's address (default: the SMTP user, else paperscout@localhost).
    #[arg(long, env = "PAPERSCOUT_MAIL_FROM", value_name = "ADDR")]
    pub mail_from: Option<String>,
    /// Post the digest to a chat: a Slack or Discord webhook, a Matrix
    /// room's send endpoint (…/rooms/ROOM/send/m.room.message) or an ntfy
    /// topic (https://ntfy.sh/TOPIC); --format slack|discord|matrix|ntfy says
    /// which (known webhook hosts need none). It is then not printed. The
    /// address is a secret and is never shown.
    #[arg(long, env = "PAPERSCOUT_POST", hide_env_values = true, value_name = "URL")]
    pub post: Option<String>,
    /// A file holding the bearer token for --post (Matrix's access token, an
    /// ntfy token); else PAPERSCOUT_POST_TOKEN.
    #[arg(long, value_name = "FILE")]
    pub post_token_file: Option<PathBuf>,
    /// Your paperscout server (`paperscout serve`), e.g. http://lab.example:8080:
    /// each pick in the HTML, Markdown, Atom and JSON digest (and the e-mail)
    /// then links 👍 and 👎 to its page there, where one click rates it.
    #[arg(long, env = "PAPERSCOUT_LINK_BASE", value_name = "URL")]
    pub link_base: Option<String>,
    #[command(flatten)]
    pub library: LibraryArgs,
    #[command(flatten)]
    pub model: ModelArgs,
}

#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub library: LibraryArgs,
}

#[derive(Debug, Clone, clap::Args)]
pub struct LibraryArgs {
    /// Library directory (default: the user's data dir, e.g. ~/.local/share/paperscout).
    #[arg(long, env = "PAPERSCOUT_LIBRARY", value_name = "DIR", global = true)]
    pub library: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Build the index and the sketch again from scratch, even when sound.
    #[arg(long)]
    pub rebuild_index: bool,
    /// Make the library private to its owner again (directories 0700,
    /// files 0600) where group or others may read it.
    #[arg(long)]
    pub fix: bool,
    /// Time the CPU's precisions again (fp32, bf16 where the CPU has it)
    /// and keep the faster that holds parity as the default (a few seconds).
    #[arg(long)]
    pub measure_precision: bool,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub library: LibraryArgs,
}

#[derive(Debug, clap::Args)]
pub struct IngestArgs {
    /// Listing files or directories (searched recursively); `-` is stdin.
    /// Also the arXiv bulk metadata snapshot, JSON lines with vectors from
    /// `paperscout embed`, and `export` Parquet files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Store the papers (and vectors the input carries) but embed nothing
    /// now; the next ingest embeds what is missing.
    #[arg(long)]
    pub no_embed: bool,
    #[command(flatten)]
    pub library: LibraryArgs,
    #[command(flatten)]
    pub model: ModelArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Parquet,
}

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The file to write.
    pub file: PathBuf,
    /// File format: Parquet, one row per paper with its vector.
    #[arg(long, value_enum, default_value_t = ExportFormat::Parquet)]
    pub format: ExportFormat,
    #[command(flatten)]
    pub library: LibraryArgs,
}

#[derive(Debug, clap::Args)]
pub struct LikeArgs {
    /// An arXiv id in the library (with or without version).
    #[arg(required_unless_present_any = ["text", "file"], conflicts_with_all = ["text", "file"])]
    pub id: Option<String>,
    /// Free text (a title, an abstract, a sentence).
    #[arg(long, conflicts_with = "file")]
    pub text: Option<String>,
    /// A file holding a title and/or abstract.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// How many papers to show.
    #[arg(short, default_value_t = 10)]
    pub k: usize,
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Search the HNSW index (built first if missing) instead of scanning
    /// every vector exactly; a one-shot scan is faster than opening the
    /// index at any size measured (docs/benchmarks.md), `serve` uses it.
    #[arg(long)]
    pub approx: bool,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub library: LibraryArgs,
    #[command(flatten)]
    pub model: ModelArgs,
}

/// Which papers `like` and `search` may return.
#[derive(Debug, clap::Args)]
pub struct ScopeArgs {
    /// Only papers first listed on or after this date (YYYY-MM-DD).
    #[arg(long)]
    pub since: Option<String>,
    /// Only papers first listed on or before this date (YYYY-MM-DD).
    #[arg(long)]
    pub until: Option<String>,
    /// Only papers with this subject (any of their categories).
    #[arg(long)]
    pub category: Option<String>,
}

impl ScopeArgs {
    pub fn scope(&self) -> anyhow::Result<crate::workflow::neighbours::Scope> {
        use crate::workflow::neighbours::parse_day;
        Ok(crate::workflow::neighbours::Scope {
            since: self.since.as_deref().map(parse_day).transpose()?,
            until: self.until.as_deref().map(parse_day).transpose()?,
            category: self.category.clone(),
        })
    }
}

#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// Words, a "quoted phrase", an author's name, an arXiv id (new or old style) or a sentence.
    #[arg(required = true)]
    pub query: Vec<String>,
    /// How many papers to show.
    #[arg(short, default_value_t = 10)]
    pub k: usize,
    /// Skip this many of the papers found: the next page is `--offset K`.
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Words, names and ids only: no model is loaded.
    #[arg(long)]
    pub no_meaning: bool,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub library: LibraryArgs,
    #[command(flatten)]
    pub model: ModelArgs,
}

#[derive(Debug, clap::Args)]
pub struct ParseArgs {
    /// Listing files (page text, page HTML, RSS, Atom, mailing, JSONL[.gz]); `-` is stdin.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// One JSON object per paper per line instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct EmbedArgs {
    /// JSON lines with a `text` field, or paper metadata (title, abstract)
    /// whose text is made as `ingest` makes it; `-` or nothing reads stdin.
    #[arg(default_value = "-")]
    pub file: PathBuf,
    /// Embed only the lines whose index (from 0) is I modulo N, so N
    /// machines can share a corpus; the other lines are left out.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub model: ModelArgs,
}

/// `embed --shard I/N`: this run's share of the lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether the line at `index` (from 0) is this shard's.
    pub fn takes(self, index: usize) -> bool {
        index % self.count == self.index
    }
}

fn parse_shard(s: &str) -> Result<Shard, String> {
    let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 0/4")?;
    let index: usize = i.trim().parse().map_err(|_| format!("not a shard index: {i}"))?;
    let count: usize = n.trim().parse().map_err(|_| format!("not a shard count: {n}"))?;
    if count == 0 || index >= count {
        return Err(format!("I must be in 0..N (0 to {} for N = {count})", count.saturating_sub(1)));
    }
    Ok(Shard { index, count })
}
