//! The feed, page, mailing and JSONL parsers against the real arXiv files in
//! ../shared (fixtures/feeds and data/corpus), plus hostile input: empty,
//! binary, unrelated pages, broken and truncated documents.

use paperscout::listing::{self, parse_bytes, parse_path, Format, Parsed};
use paperscout::paper::{Kind, Paper};
use std::path::{Path, PathBuf};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

fn feed_path(name: &str) -> PathBuf {
    shared().join("fixtures/feeds").join(name)
}

fn read_feed(name: &str) -> String {
    std::fs::read_to_string(feed_path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn parse_feed(name: &str) -> Parsed {
    parse_path(&feed_path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn paper<'a>(parsed: &'a Parsed, id: &str) -> &'a Paper {
    parsed.papers.iter().find(|p| p.id == id).unwrap_or_else(|| panic!("no paper {id}"))
}

fn count_kinds(parsed: &Parsed) -> (usize, usize, usize) {
    let of = |k: Kind| parsed.papers.iter().filter(|p| p.kind == k).count();
    (of(Kind::New), of(Kind::Cross), of(Kind::Replaced))
}

/// What every parsed paper must satisfy, whatever the format.
fn assert_sane(parsed: &Parsed, what: &str) {
    for p in &parsed.papers {
        assert!(!p.id.is_empty() && !p.title.is_empty(), "{what}: {p:?}");
        assert_eq!(p.primary.as_ref(), p.subjects.first(), "{what}: {}", p.id);
        for field in [&p.title, &p.abstract_text] {
            assert!(!field.contains("  ") && !field.starts_with(' ') && !field.ends_with(' '), "{what}: {}", p.id);
        }
        assert!(p.authors.iter().all(|a| !a.is_empty() && a.trim() == a), "{what}: {}", p.id);
        if let Some(d) = &p.listing_date {
            assert!(d.len() == 10 && d.as_bytes()[4] == b'-' && d.as_bytes()[7] == b'-', "{what}: {d}");
        }
    }
}

fn format_by_name(name: &str) -> Format {
    match name.split("__").next().unwrap_or_default() {
        n if n.starts_with("api-atom") => Format::Atom,
        n if n.starts_with("rss") => Format::Rss,
        n if n.starts_with("html") => Format::Html,
        n if n.starts_with("mailing") || n.starts_with("listing-pastweek") => Format::Mailing,
        other => panic!("unexpected fixture {other}"),
    }
}

// ---------------------------------------------------------------- detection

#[test]
fn every_feed_fixture_is_detected_and_parsed_by_content() {
    let dir = shared().join("fixtures/feeds");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("fixtures/feeds")
        .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 35, "{names:?}");
    for name in &names {
        let expected = format_by_name(name);
        let text = read_feed(name);
        assert_eq!(listing::detect(&text), Some(expected), "{name}");
        // The file name plays no part: the same bytes under a neutral name.
        let is_error_feed = name.contains("id_abc") || name.contains("error-bad-archive");
        // Feeds without entries are errors too: nothing was read.
        let is_empty_feed = name.contains("empty-test-archive") || name.contains("id_0000.0000") || name.contains("id_0808.05394_s0");
        match parse_bytes(text.as_bytes(), "input") {
            Ok(parsed) => {
                assert!(!is_error_feed && !is_empty_feed, "{name} should be an error");
                assert_eq!(parsed.format, expected, "{name}");
                assert!(parsed.warnings.is_empty(), "{name}: {:?}", parsed.warnings);
                assert_sane(&parsed, name);
            }
            Err(e) => assert!(is_error_feed || (is_empty_feed && e.to_string().contains("lists no paper")), "{name}: {e}"),
        }
    }
}

#[test]
fn corpus_jsonl_parses_completely() {
    let path = shared().join("data/corpus/arxiv-cs-2025-2026.jsonl.gz");
    let started = std::time::Instant::now();
    let parsed = parse_path(&path).expect("corpus");
    eprintln!("corpus: {} papers in {:?}", parsed.papers.len(), started.elapsed());
    assert_eq!(parsed.format, Format::Jsonl);
    assert_eq!(parsed.papers.len(), 74_728);
    assert!(parsed.warnings.is_empty(), "{:?}", &parsed.warnings[..parsed.warnings.len().min(5)]);
    assert_sane(&parsed, "corpus");
    let first = &parsed.papers[0];
    assert_eq!(first.id, "2503.11731");
    assert_eq!(first.kind, Kind::New);
    assert!(first.title.starts_with("Industrial-Grade Sensor Simulation via Gaussian Splatting"));
    assert_eq!(first.authors.len(), 16);
    assert_eq!(first.authors[0], "Xianming Zeng");
    assert_eq!(first.listing_date.as_deref(), Some("2025-03-18"));
    assert!(first.abstract_text.starts_with("Sensor simulation is pivotal"));
    assert!(parsed.papers.iter().all(|p| !p.subjects.is_empty() && p.listing_date.is_some()));
    let cv = parsed.papers.iter().filter(|p| p.primary.as_deref() == Some("cs.CV")).count();
    assert!((30_000..40_000).contains(&cv), "{cv}");
}

// ---------------------------------------------------------------- RSS

const RSS_ALL: &str = "rss-2024-11-28__aioarxiv__all-archives.xml";

#[test]
fn rss_all_archives_feed() {
    let parsed = parse_feed(RSS_ALL);
    assert_eq!(parsed.format, Format::Rss);
    assert_eq!(parsed.papers.len(), 1504);
    assert_eq!(count_kinds(&parsed), (926, 9, 569));
    assert!(parsed.papers.iter().all(|p| p.listing_date.as_deref() == Some("2024-11-28")));
    let cs = parsed.papers.iter().filter(|p| p.subjects.iter().any(|s| s.starts_with("cs."))).count();
    assert_eq!(cs, 722);

    let first = &parsed.papers[0];
    assert_eq!((first.id.as_str(), first.version, first.kind), ("2411.17700", Some(1), Kind::New));
    assert_eq!(first.authors, ["Jun Cui"]);
    assert_eq!(first.subjects, ["cs.CY"]);
    assert!(first.abstract_text.starts_with("This study investigates the influence of generative"));
    assert!(first.abstract_text.ends_with("structural equations (PLS-SEM)."));

    let cross = paper(&parsed, "2202.06515");
    assert_eq!((cross.kind, cross.version), (Kind::Cross, Some(3)));
    assert_eq!(cross.subjects, ["astro-ph.CO", "astro-ph.GA", "physics.flu-dyn"]);
    assert_eq!(cross.journal_ref.as_deref(), Some("Physics of Fluids 36, 117158 (2024)"));

    let replaced = paper(&parsed, "1401.3665");
    assert_eq!((replaced.kind, replaced.version), (Kind::Replaced, Some(4)));
    assert_eq!(replaced.title, "The existence of designs");

    // Indented lines in arXiv abstracts open paragraphs; `&lt;` is decoded
    // and the LaTeX around it survives.
    let paragraphs = paper(&parsed, "2411.17838");
    assert_eq!(paragraphs.authors, ["Christopher Holder", "Anthony Bagnall"]);
    assert!(paragraphs.abstract_text.contains("and classification.\nThe most popular TSCL"));
    let latex = paper(&parsed, "2411.17730");
    assert!(latex.abstract_text.contains("where $\\frac{1}{3}<s<1$ and"));
    assert_eq!(latex.title, "Almost sure well-posedness and orbital stability for Schr\\\"odinger equation with potential");
}

#[test]
fn rss_empty_and_error_feeds() {
    // A feed without items reads, but gives nothing: an error that says so.
    let empty = parse_path(&feed_path("rss-2024-11-28__aioarxiv__empty-test-archive.xml")).unwrap_err();
    assert!(empty.to_string().ends_with("read as RSS feed but it lists no paper"), "{empty}");

    let err = parse_path(&feed_path("rss-2024-11-28__aioarxiv__error-bad-archive.xml")).unwrap_err();
    assert!(err.message.contains("arXiv RSS error"), "{err}");
    assert!(err.message.contains("Bad archive 'astroph'"), "{err}");
}

// ---------------------------------------------------------------- Atom

#[test]
fn atom_classic_feeds() {
    let one = parse_feed("api-atom-2016__arxiv.py-pr3__id_list-1111.2011v2.xml");
    assert_eq!(one.format, Format::Atom);
    assert_eq!(one.papers.len(), 1);
    let p = &one.papers[0];
    assert_eq!((p.id.as_str(), p.version, p.kind), ("1111.2011", Some(2), Kind::Replaced));
    assert_eq!(p.title, "Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit");
    assert_eq!(p.authors, ["James M. Murray", "Adrian Del Maestro", "Zlatko Tesanovic"]);
    assert_eq!(p.subjects, ["cond-mat.str-el", "cond-mat.stat-mech"]);
    assert_eq!(p.comments.as_deref(), Some("8 pages, 3 figures. Published version"));
    assert_eq!(p.journal_ref.as_deref(), Some("Phys. Rev. B 85, 115117 (2012)"));
    // `updated` (the v2 date), not `published` (2011-11-08).
    assert_eq!(p.listing_date.as_deref(), Some("2012-04-02"));
    assert!(p.abstract_text.starts_with("Theoretical description of anisotropic systems, such as layered superconductors"));
    assert!(!p.abstract_text.contains('\n'));

    for name in [
        "api-atom-2016__arxiv.py-pr3__au-del_maestro.xml",
        "api-atom-2016__arxiv.py-pr3__au-del_maestro-ANDNOT-checkerboard-pyrochlore.xml",
        "api-atom-2017__orijtech-arxiv__deep-dream-page0.xml",
        "api-atom-2017__orijtech-arxiv__deep-dream-page1.xml",
        "api-atom-2017__orijtech-arxiv__deep-dream-page2.xml",
    ] {
        let parsed = parse_feed(name);
        assert_eq!(parsed.papers.len(), 10, "{name}");
        assert!(parsed.papers.iter().all(|p| !p.abstract_text.is_empty() && !p.authors.is_empty()), "{name}");
    }
    let maestro = parse_feed("api-atom-2016__arxiv.py-pr3__au-del_maestro.xml");
    let old_style = paper(&maestro, "cond-mat/0412498");
    assert_eq!(old_style.authors, ["Adrian Del Maestro", "Subir Sachdev"]);
    assert_eq!(old_style.journal_ref.as_deref(), Some("Physical Review B 71, 184511 (2005)"));

    // MSC classes among the category terms are not subjects.
    let dream = parse_feed("api-atom-2017__orijtech-arxiv__deep-dream-page2.xml");
    let mori = paper(&dream, "1304.8005");
    assert_eq!((mori.version, mori.kind), (Some(2), Kind::Replaced));
    assert_eq!(mori.subjects, ["math.AG"]);
    assert_eq!(mori.title, "Examples of Mori dream spaces with Picard number two");
}

#[test]
fn atom_2026_feeds() {
    let bls = parse_feed("api-atom-2026__arxiv.py__id_2104.12255v1_s0_m100_6ae69987ffe1.xml");
    let p = &bls.papers[0];
    assert_eq!((p.id.as_str(), p.version, p.kind, p.title.as_str()), ("2104.12255", Some(1), Kind::New, "0"));
    assert_eq!(p.authors, ["Quan Thoi Minh Nguyen"]);
    assert_eq!(p.subjects, ["cs.CR"]);
    assert_eq!(p.listing_date.as_deref(), Some("2021-04-20"));

    let aew = parse_feed("api-atom-2026__arxiv.py__id_1707.08567_s0_m100_6a1afebfc6a3.xml");
    let p = &aew.papers[0];
    assert_eq!(p.authors.len(), 34);
    assert_eq!(p.authors[4], "Peter H. N. de With");
    assert_eq!(p.comments.as_deref(), Some("44 pages, editors for the proceedings: Yanling Chen and A. J. Han Vinck"));
    assert_eq!(p.subjects, ["cs.IT"]);
    // Same entry inside a two-id query whose other id does not exist.
    let pair = parse_feed("api-atom-2026__arxiv.py__id_0808.05394_1707.08567_s0_m100_42e5aa0ec3af.xml");
    assert_eq!(pair.papers, aew.papers.iter().map(|p| Paper { source: pair.papers[0].source.clone(), ..p.clone() }).collect::<Vec<_>>());

    let hot = parse_feed("api-atom-2026__arxiv.py__id_astro-ph_0601001_s0_m100_3150dca9dc76.xml");
    let p = &hot.papers[0];
    assert_eq!((p.id.as_str(), p.version), ("astro-ph/0601001", Some(1)));
    assert_eq!(p.subjects, ["astro-ph"]);
    assert_eq!(p.journal_ref.as_deref(), Some("ActaAstron.56:1-50,2006"));
    assert_eq!(p.authors, ["Andrew Gould", "Susan Dorsher", "B. Scott Gaudi", "Andrzej Udalski"]);

    let quantum = parse_feed("api-atom-2026__arxiv.py__id_quant-ph_0201082v1_s0_m100_86989fe779ef.xml");
    assert_eq!(quantum.papers[0].id, "quant-ph/0201082");
    assert_eq!(quantum.papers[0].subjects, ["quant-ph", "cs.PL"]);

    for (name, count) in [
        ("api-atom-2026__arxiv.py__q_testing_s0_m100_cfe7536492ca.xml", 100),
        ("api-atom-2026__arxiv.py__q_testing_s0_m10_bc5a6c384fe9.xml", 10),
        ("api-atom-2026__arxiv.py__q_testing_s0_m15_80c242b59d59.xml", 15),
        ("api-atom-2026__arxiv.py__q_testing_s5_m15_bbcf6b23085b.xml", 15),
        ("api-atom-2026__arxiv.py__q_testing_s50_m10_7f488ab8598c.xml", 10),
        ("api-atom-2026__arxiv.py__id_1605.08386_s0_m100_199195aa31ad.xml", 1),
    ] {
        assert_eq!(parse_feed(name).papers.len(), count, "{name}");
    }
    let page = parse_feed("api-atom-2026__arxiv.py__q_testing_s5_m15_bbcf6b23085b.xml");
    let survey = paper(&page, "2503.05378");
    assert_eq!((survey.version, survey.kind), (Some(2), Kind::Replaced));
    assert_eq!(survey.title, "A Survey on Web Testing: On the Rise of AI and Applications in Industry");
    let gui = paper(&page, "1202.4527");
    assert_eq!(
        gui.journal_ref.as_deref(),
        Some("International Journal of Software Engineering & Applications (IJSEA), Vol.3, No.1, January 2012")
    );
}

#[test]
fn atom_empty_results_and_api_errors() {
    for name in [
        "api-atom-2026__arxiv.py__id_0000.0000_s0_m100_8b51d9633a68.xml",
        "api-atom-2026__arxiv.py__id_0808.05394_s0_m100_7b0c7d0a7cdd.xml",
    ] {
        let err = parse_path(&feed_path(name)).unwrap_err();
        assert!(err.to_string().ends_with("read as Atom feed but it lists no paper"), "{name}: {err}");
    }
    let err = parse_path(&feed_path("api-atom-2026__arxiv.py__id_abc_s0_m100_b79c8dcf6bc3.xml")).unwrap_err();
    assert_eq!(err.message, "arXiv API error: incorrect id format for abc");
}

// ---------------------------------------------------------------- HTML

const HTML_PASTWEEK: &str = "html-list-pastweek-2024-11-22__astrochristian__astro-ph_browser-saved.html";

#[test]
fn html_pastweek_browser_saved_page() {
    let parsed = parse_feed(HTML_PASTWEEK);
    assert_eq!(parsed.format, Format::Html);
    assert_eq!(parsed.papers.len(), 397);
    assert_eq!(count_kinds(&parsed), (334, 63, 0));
    assert!(parsed.papers.iter().all(|p| p.abstract_text.is_empty()), "pastweek pages have no abstracts");
    let per_day = |d: &str| parsed.papers.iter().filter(|p| p.listing_date.as_deref() == Some(d)).count();
    assert_eq!(
        [per_day("2024-11-22"), per_day("2024-11-21"), per_day("2024-11-20"), per_day("2024-11-19"), per_day("2024-11-18")],
        [75, 67, 94, 101, 60]
    );

    let first = &parsed.papers[0];
    assert_eq!((first.id.as_str(), first.version, first.kind), ("2411.14419", Some(1), Kind::New));
    assert_eq!(
        first.title,
        "Combining summary statistics with simulation-based inference for the 21 cm signal from the Epoch of Reionization"
    );
    assert_eq!(first.authors, ["Benoit Semelin", "Romain Mériot", "Ashutosh Mishra", "David Cornu"]);
    assert_eq!(first.comments.as_deref(), Some("11 pages, submitted to A&A"));
    assert_eq!(first.subjects, ["astro-ph.CO"]);

    // MathJax's rendered spans are dropped, its TeX source kept.
    let mathjax = paper(&parsed, "2411.14273");
    assert_eq!(mathjax.title, "Examining the evolution of the Supersoft X-ray Source RX J$0513.9-6951$");

    let cross = paper(&parsed, "2411.14399");
    assert_eq!(cross.kind, Kind::Cross);
    assert_eq!(cross.subjects, ["math.NA", "astro-ph.IM", "gr-qc", "math-ph"]);
    assert_eq!(cross.authors, ["Lidia J. Gomes Da Silva"]);
    assert!(cross.title.starts_with("DiscoTEX 1.0: Discontinuous collocation and implicit-turned-explicit (IMTEX)"));

    let journal = paper(&parsed, "2411.14225");
    assert_eq!(journal.journal_ref.as_deref(), Some("Astrophysical Journal, 976, 181 (2024)"));
    assert_eq!(journal.comments, None);
}

/// A /list/cs.DC/new page as arxiv.org serves it (single-quoted attributes,
/// relative links, three sections, abstracts; modelled on arXiv's
/// list_macros.html template), with entries from the 2 March 2026 listing.
const NEW_PAGE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>  <title>Distributed, Parallel, and Cluster Computing  </title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <script src="//static.arxiv.org/MathJax-2.7.3/MathJax.js"></script>
</head>
<body  class="with-cu-identity">
<div id='content-inner'>
  <div id='dlpage'>
    <h1>Distributed, Parallel, and Cluster Computing</h1>
    <ul>
      <li><a href="/list/cs.DC/new?skip=0&amp;show=2000#item1" rel="nofollow">New submissions</a></li>
      <li><a href="/list/cs.DC/new?skip=0&amp;show=2000#item7" rel="nofollow">Cross-lists</a></li>
      <li><a href="/list/cs.DC/new?skip=0&amp;show=2000#item13" rel="nofollow">Replacements</a></li>
    </ul>
    <p>See <a id="recent-cs.DC" aria-labelledby="recent-cs.DC" href="/list/cs.DC/recent">recent</a> articles</p>
    <h3>Showing new listings for Monday, 2 March 2026</h3>
    <div class='paging'>Total of 3 entries
    </div>
<dl id='articles'>
    <h3>New submissions (showing 1 of 1 entries)</h3>
    <dt>
      <a name='item1'>[1]</a>
      <a href ="/abs/2602.23598" title="Abstract" id="2602.23598">
        arXiv:2602.23598
      </a>
      [<a href="/pdf/2602.23598" title="Download PDF" id="pdf-2602.23598" aria-labelledby="pdf-2602.23598">pdf</a>, <a href="https://arxiv.org/html/2602.23598v1" title="View HTML" id="html-2602.23598" aria-labelledby="html-2602.23598" rel="noopener noreferrer" target="_blank">html</a>, <a href="/format/2602.23598" title="Other formats" id="oth-2602.23598" aria-labelledby="oth-2602.23598">other</a>]
    </dt>
    <dd>
      <div class='meta'>
        <div class='list-title mathjax'><span class='descriptor'>Title:</span>
          QoSFlow: Ensuring Service Quality of Distributed Workflows Using Interpretable Sensitivity Models
        </div>
        <div class='list-authors'><a href="https://arxiv.org/search/cs?searchtype=author&amp;query=Rashid,+M+H" rel="nofollow">Md Hasanur Rashid</a>, <a href="https://arxiv.org/search/cs?searchtype=author&amp;query=Firoz,+J" rel="nofollow">Jesun Firoz</a>, <a href="https://arxiv.org/search/cs?searchtype=author&amp;query=Tallent,+N+R" rel="nofollow">Nathan R. Tallent</a>, <a href="https://arxiv.org/search/cs?searchtype=author&amp;query=Guo,+L" rel="nofollow">Luanzheng Guo</a>, <a href="https://arxiv.org/search/cs?searchtype=author&amp;query=Tang,+M" rel="nofollow">Meng Tang</a>, <a href="https://arxiv.org/search/cs?searchtype=author&amp;query=Dai,+D" rel="nofollow">Dong Dai</a></div>
        <div class='list-comments mathjax'><span class='descriptor'>Comments:</span>
          to be published in 40th IEEE International Parallel &amp; Distributed Processing Symposium (IPDPS), 2026
        </div>
        <div class='list-subjects'><span class='descriptor'>Subjects:</span>
          <span class="primary-subject">Distributed, Parallel, and Cluster Computing (cs.DC)</span>; Performance (cs.PF)
        </div>
        <p class='mathjax'>
          With the increasing importance of distributed scientific workflows, there is a critical need to ensure Quality of Service (QoS) constraints, such as minimizing time or limiting execution to resource subsets. However, the unpredictable nature of workflow behavior, even with similar configurations, makes it difficult to provide QoS guarantees. For effective reasoning about QoS scheduling, we introduce QoSFlow, a performance modeling method that partitions a workflow&#39;s execution configuration space into regions with similar behavior. Each region groups configurations with comparable execution times according to a given statistical sensitivity, enabling efficient QoS-driven scheduling through analytical reasoning rather than exhaustive testing. Evaluation on three diverse workflows shows that QoSFlow&#39;s execution recommendations outperform the best-performing standard heuristic by 27.38%. Empirical validation confirms that QoSFlow&#39;s recommended configurations consistently match measured execution outcomes across different QoS constraints.
        </p>
      </div>
    </dd>
</dl>
<dl id='articles'>
    <h3>Cross submissions (showing 1 of 1 entries)</h3>
    <dt>
      <a name='item7'>[7]</a>
      <a href ="/abs/2602.23434" title="Abstract" id="2602.23434">
        arXiv:2602.23434
      </a>
      (cross-list from astro-ph.HE)
      [<a href="/pdf/2602.23434" title="Download PDF" id="pdf-2602.23434" aria-labelledby="pdf-2602.23434">pdf</a>, <a href="/format/2602.23434" title="Other formats" id="oth-2602.23434" aria-labelledby="oth-2602.23434">other</a>]
    </dt>
    <dd>
      <div class='meta'>
        <div class='list-title mathjax'><span class='descriptor'>Title:</span>
          The PLUTO Code on GPUs: Offloading Lagrangian Particle Methods
        </div>
        <div class='list-authors'><a href="https://arxiv.org/search/astro-ph?searchtype=author&amp;query=Suriano,+A" rel="nofollow">Alessio Suriano</a>, <a href="https://arxiv.org/search/astro-ph?searchtype=author&amp;query=Truzzi,+S" rel="nofollow">Stefano Truzzi</a>, <a href="https://arxiv.org/search/astro-ph?searchtype=author&amp;query=Costa,+A" rel="nofollow">Agnese Costa</a>, <a href="https://arxiv.org/search/astro-ph?searchtype=author&amp;query=Rossazza,+M" rel="nofollow">Marco Rossazza</a>, <a href="https://arxiv.org/search/astro-ph?searchtype=author&amp;query=Shukla,+N" rel="nofollow">Nitin Shukla</a>, <a href="https://arxiv.org/search/astro-ph?searchtype=author&amp;query=Mignone,+A" rel="nofollow">Andrea Mignone</a>, <a href="https://arxiv.org/search/astro-ph?searchtype=author&amp;query=Berta,+V" rel="nofollow">Vittoria Berta</a>, <a href="https://arxiv.org/search/astro-ph?searchtype=author&amp;query=Zanni,+C" rel="nofollow">Claudio Zanni</a></div>
        <div class='list-comments mathjax'><span class='descriptor'>Comments:</span>
          Published in Astronomy and Computing. Special issue: Advancing Cosmology and Astrophysics through High-Performance Computing and Machine Learning
        </div>
        <div class='list-journal-ref'><span class='descriptor'>Journal-ref:</span>
          Astronomy and Computing, Volume 55, 2026, 101088, ISSN 2213-1337
        </div>
        <div class='list-subjects'><span class='descriptor'>Subjects:</span>
          <span class="primary-subject">High Energy Astrophysical Phenomena (astro-ph.HE)</span>; Instrumentation and Methods for Astrophysics (astro-ph.IM); Distributed, Parallel, and Cluster Computing (cs.DC)
        </div>
        <p class='mathjax'>
          The Lagrangian Particles (LP) module of the PLUTO code offers a powerful simulation tool to predict the non-thermal emission produced by shock accelerated particles in large-scale relativistic magnetized astrophysics flows.
<br />The code has been benchmarked up to 28672 parallel CPUs cores and 1024 parallel GPUs demonstrating $\sim(80-90)\%$ weak scaling parallel efficiency.
        </p>
      </div>
    </dd>
</dl>
<dl id='articles'>
    <h3>Replacement submissions (showing 1 of 1 entries)</h3>
    <dt>
      <a name='item13'>[13]</a>
      <a href ="/abs/2505.23649" title="Abstract" id="2505.23649">
        arXiv:2505.23649
      </a>
      (replaced)
      [<a href="/pdf/2505.23649" title="Download PDF" id="pdf-2505.23649" aria-labelledby="pdf-2505.23649">pdf</a>, <a href="https://arxiv.org/html/2505.23649v3" title="View HTML" id="html-2505.23649" aria-labelledby="html-2505.23649" rel="noopener noreferrer" target="_blank">html</a>, <a href="/format/2505.23649" title="Other formats" id="oth-2505.23649" aria-labelledby="oth-2505.23649">other</a>]
    </dt>
    <dd>
      <div class='meta'>
        <div class='list-title mathjax'><span class='descriptor'>Title:</span>
          Complementary Time-Space Tradeoff for Self-Stabilizing Leader Election: Polynomial States Meet Sublinear Time
        </div>
        <div class='list-authors'><a href="https://arxiv.org/search/cs?searchtype=author&amp;query=Sudo,+Y" rel="nofollow">Yuichi Sudo</a></div>
        <div class='list-subjects'><span class='descriptor'>Subjects:</span>
          <span class="primary-subject">Distributed, Parallel, and Cluster Computing (cs.DC)</span>
        </div>
        <p class='mathjax'>
          Recently, Austin, Berenbrink, Friedetzky, G&#246;tte, and Hintze [ABF+25] (PODC) presented a novel SS-LE protocol parameterized by a positive integer $\rho$ with $1 \le \rho &lt; n/2$ that solves SS-LE in $O(\frac{n}{\rho}\cdot\log n)$ time w.h.p.
        </p>
      </div>
    </dd>
</dl>
  </div>
</div>
</body>
</html>
"#;

#[test]
fn html_new_page_as_served() {
    assert_eq!(listing::detect(NEW_PAGE), Some(Format::Html));
    let parsed = parse_bytes(NEW_PAGE.as_bytes(), "cs.DC-new.html").expect("new page");
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    assert_eq!(parsed.papers.len(), 3);
    assert!(parsed.papers.iter().all(|p| p.listing_date.as_deref() == Some("2026-03-02")));

    let [new, cross, replaced] = [&parsed.papers[0], &parsed.papers[1], &parsed.papers[2]];
    assert_eq!((new.id.as_str(), new.version, new.kind), ("2602.23598", Some(1), Kind::New));
    assert_eq!((cross.id.as_str(), cross.version, cross.kind), ("2602.23434", None, Kind::Cross));
    assert_eq!((replaced.id.as_str(), replaced.version, replaced.kind), ("2505.23649", Some(3), Kind::Replaced));

    // The same entries as tests/../shared/fixtures/listings/expected.jsonl
    // has them from the copied text of that page.
    let expected = std::fs::read_to_string(shared().join("fixtures/listings/expected.jsonl")).expect("expected.jsonl");
    let want = |id: &str| -> serde_json::Value {
        expected
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|v| v["file"] == "cs.DC-2026-03-02.txt" && v["id"] == id)
            .unwrap_or_else(|| panic!("{id} in expected.jsonl"))
    };
    for p in [new, cross, replaced] {
        let w = want(&p.id);
        assert_eq!(p.title, w["title"].as_str().unwrap_or_default(), "{}", p.id);
        assert_eq!(serde_json::json!(p.authors), w["authors"], "{}", p.id);
        assert_eq!(serde_json::json!(p.subjects), w["subjects"], "{}", p.id);
        assert_eq!(serde_json::json!(p.comments), w["comments"], "{}", p.id);
        assert_eq!(serde_json::json!(p.journal_ref), w["journal_ref"], "{}", p.id);
        assert_eq!(p.kind.as_str(), w["kind"].as_str().unwrap_or_default(), "{}", p.id);
    }
    assert_eq!(new.abstract_text, want(&new.id)["abstract"].as_str().unwrap_or_default());
    // `<br />` is arXiv's paragraph break.
    assert_eq!(
        cross.abstract_text,
        "The Lagrangian Particles (LP) module of the PLUTO code offers a powerful simulation tool to predict the \
         non-thermal emission produced by shock accelerated particles in large-scale relativistic magnetized \
         astrophysics flows.\nThe code has been benchmarked up to 28672 parallel CPUs cores and 1024 parallel GPUs \
         demonstrating $\\sim(80-90)\\%$ weak scaling parallel efficiency."
    );
    assert_eq!(
        replaced.abstract_text,
        "Recently, Austin, Berenbrink, Friedetzky, Götte, and Hintze [ABF+25] (PODC) presented a novel SS-LE \
         protocol parameterized by a positive integer $\\rho$ with $1 \\le \\rho < n/2$ that solves SS-LE in \
         $O(\\frac{n}{\\rho}\\cdot\\log n)$ time w.h.p."
    );
}

#[test]
fn html_double_quoted_and_empty_listing_pages() {
    // The browser-saved quoting style, and a day with no entries.
    let page = NEW_PAGE.replace("='", "=\"").replace("'>", "\">");
    assert!(!page.contains("='"));
    let parsed = parse_bytes(page.as_bytes(), "dq.html").expect("double quotes");
    assert_eq!(parsed.papers.len(), 3);

    let empty = "<!DOCTYPE html><html><body><h1>Computer Science</h1>\
        <h3>Showing new listings for Friday, 6 March 2026</h3><p>No updates today.</p></body></html>";
    let err = parse_bytes(empty.as_bytes(), "empty.html").unwrap_err();
    assert_eq!(
        err.to_string(),
        "empty.html: read as listing page HTML but it lists no paper (empty.html: the page says there are no updates for its day)"
    );
}

#[test]
fn html_truncated_pages_keep_complete_entries() {
    let second_dd = NEW_PAGE.find("The PLUTO Code on GPUs").expect("marker");
    let parsed = parse_bytes(&NEW_PAGE.as_bytes()[..second_dd], "cut.html").expect("cut page");
    assert_eq!(parsed.papers.len(), 1, "{:?}", parsed.warnings);
    assert!(parsed.warnings.iter().any(|w| w.contains("arXiv:2602.23434")), "{:?}", parsed.warnings);

    let third_abstract = NEW_PAGE.find("Recently, Austin").expect("marker");
    let parsed = parse_bytes(&NEW_PAGE.as_bytes()[..third_abstract + 20], "cut.html").expect("cut page");
    assert_eq!(parsed.papers.len(), 2);
    assert!(parsed.warnings.iter().any(|w| w.contains("2505.23649") && w.contains("truncated")), "{:?}", parsed.warnings);

    let between = NEW_PAGE.find("<dl id='articles'>\n    <h3>Replacement").expect("marker");
    let parsed = parse_bytes(&NEW_PAGE.as_bytes()[..between], "cut.html").expect("cut page");
    assert_eq!(parsed.papers.len(), 2);
    assert!(parsed.warnings.iter().any(|w| w.contains("</html>")), "{:?}", parsed.warnings);
}

// ---------------------------------------------------------------- mailings

#[test]
fn mailing_astro_ph() {
    let parsed = parse_feed("mailing-new__arxiv-browse__astro-ph.txt");
    assert_eq!(parsed.format, Format::Mailing);
    assert_eq!(parsed.papers.len(), 97);
    // Subject: "astro-ph daily 53 new + 4 crosses received"; 40 replacements.
    assert_eq!(count_kinds(&parsed), (53, 4, 40));
    assert!(parsed.papers.iter().all(|p| p.listing_date.as_deref() == Some("2023-03-03")));
    assert_eq!(parsed.papers.iter().filter(|p| p.abstract_text.is_empty()).count(), 40);

    let first = &parsed.papers[0];
    assert_eq!((first.id.as_str(), first.version, first.kind), ("2303.00763", None, Kind::New));
    assert_eq!(first.title, "Census of Gaseous Satellites around Local Spiral Galaxies");
    assert_eq!(first.authors, ["Jingyao Zhu", "Mary E Putman"]);
    assert_eq!(first.comments.as_deref(), Some("18 pages, 13 figures, accepted by MNRAS"));
    assert!(first.abstract_text.starts_with("We present a search for gas-containing dwarf galaxies as satellite systems around nearby"));
    assert!(first.abstract_text.ends_with("is likely at play."));
    assert!(first.abstract_text.contains("($R_{200}$) and 46 candidates"));

    let wrapped_title = paper(&parsed, "2303.00765");
    assert_eq!(wrapped_title.title, "Nucleosynthesis in outflows of compact objects and detection prospects of associated kilonovae");

    let replaced = paper(&parsed, "2104.03145");
    assert_eq!(replaced.kind, Kind::Replaced);
    assert_eq!(replaced.subjects, ["astro-ph.CO", "hep-ph"]);
    assert_eq!(replaced.journal_ref.as_deref(), Some("Phys. Rev. D 103, 103025 (2021)"));
    assert_eq!(
        replaced.comments.as_deref(),
        Some("10 pages, 14 figures Clarification added and a software output interpretation mistake corrected; only minor changes to the results")
    );
    let replaced_cross = paper(&parsed, "2206.06142");
    assert_eq!(replaced_cross.kind, Kind::Replaced);
    assert_eq!(replaced_cross.subjects, ["hep-ph", "astro-ph.HE", "hep-th"]);

    let long_list = paper(&parsed, "2205.05709");
    assert_eq!(long_list.authors.last().map(String::as_str), Some("Perry Berlind"));
    let cross = paper(&parsed, "2303.00812");
    assert_eq!(cross.kind, Kind::Cross);
}

#[test]
fn mailing_subject_class_files() {
    let ga = parse_feed("mailing-new__arxiv-browse__astro-ph.GA.txt");
    assert_eq!(ga.papers.len(), 26);
    assert_eq!(count_kinds(&ga), (14, 1, 11));
    let cross = paper(&ga, "2303.01374");
    assert_eq!(cross.kind, Kind::Cross);
    assert_eq!(cross.title, "Raising the observed metallicity floor with a 3D non-LTE analysis of SDSS J102915.14+172927.9");
    assert_eq!(cross.authors, ["C. Lagae", "A. M. Amarsi", "L. F. Rodríguez Díaz", "K. Lind", "T. Nordlander", "T. T. Hansen", "A. Heger"]);
    assert_eq!(cross.subjects, ["astro-ph.SR", "astro-ph.GA"]);
    assert_eq!(cross.comments.as_deref(), Some("14 pages, 9 figures, Accepted for publication in Astronomy & Astrophysics"));
    assert!(cross.abstract_text.starts_with("Context: The first stars produced"));
    let leo = paper(&ga, "2201.07304");
    assert_eq!(leo.kind, Kind::Replaced);
    assert_eq!(leo.authors.last().map(String::as_str), Some("S.T. Sohn"));

    let ag = parse_feed("mailing-new__arxiv-browse__math.AG.txt");
    assert_eq!(ag.papers.len(), 2);
    assert_eq!((ag.papers[0].id.as_str(), ag.papers[0].kind), ("2306.77777", Kind::Cross));
    assert_eq!(ag.papers[0].subjects, ["math.GR", "math.DS", "math.AG"]);
    assert_eq!(ag.papers[0].authors, ["Ben Hayes", "Srivatsav Kunnawalkam Elayavalli"]);
    assert_eq!((ag.papers[1].id.as_str(), ag.papers[1].kind), ("2204.88888", Kind::Replaced));
    assert_eq!(ag.papers[1].authors, ["Mystery Person"]);
    assert!(ag.papers.iter().all(|p| p.listing_date.as_deref() == Some("2023-06-09")));

    let qfin = parse_feed("mailing-new__arxiv-browse__q-fin.txt");
    assert_eq!(qfin.papers.len(), 16);
    assert_eq!(count_kinds(&qfin), (13, 0, 3));
    assert_eq!(qfin.papers[0].id, "2303.08867");
    assert_eq!(qfin.papers[0].subjects, ["q-fin.TR", "cond-mat.stat-mech"]);
    let mf = paper(&qfin, "2206.14015");
    assert_eq!((mf.kind, mf.subjects.clone()), (Kind::Replaced, vec!["q-fin.MF".to_string(), "math.OC".into(), "math.PR".into()]));
    assert!(qfin.papers.iter().all(|p| p.listing_date.as_deref() == Some("2023-03-17")));
}

#[test]
fn pastweek_listing_text() {
    let parsed = parse_feed("listing-pastweek__arxiv-browse__astro-ph.txt");
    assert_eq!(parsed.format, Format::Mailing);
    assert_eq!(parsed.papers.len(), 320);
    assert_eq!(count_kinds(&parsed), (284, 36, 0));
    assert!(parsed.papers.iter().all(|p| p.abstract_text.is_empty()));
    let days: Vec<&str> = ["2023-03-03", "2023-03-02", "2023-03-01", "2023-02-28", "2023-02-27"].to_vec();
    for day in &days {
        assert!(parsed.papers.iter().any(|p| p.listing_date.as_deref() == Some(*day)), "{day}");
    }
    assert!(parsed.papers.iter().all(|p| p.listing_date.is_some()));

    let first = &parsed.papers[0];
    assert_eq!(first.id, "2303.01496");
    assert_eq!(first.title, "Robustness Measures for Molecular Detections using High-Resolution Transmission Spectroscopy of Exoplanets");
    assert_eq!(first.authors, ["Connor J. Cheverall", "Nikku Madhusudhan", "Måns Holmberg"]);
    assert_eq!(first.listing_date.as_deref(), Some("2023-03-03"));
    let journal = paper(&parsed, "2303.01438");
    assert_eq!(journal.journal_ref.as_deref(), Some("MNRAS 519 (2023) 5922-5930"));
    let cross = paper(&parsed, "2303.00812");
    assert_eq!((cross.kind, cross.primary.as_deref()), (Kind::Cross, Some("gr-qc")));
    assert_eq!(cross.subjects, ["gr-qc", "astro-ph.EP", "astro-ph.IM", "physics.space-ph"]);
    // The same paper in the daily mailing and in the pastweek file reads the same.
    let mailing = parse_feed("mailing-new__arxiv-browse__astro-ph.txt");
    let (a, b) = (paper(&parsed, "2303.00763"), paper(&mailing, "2303.00763"));
    assert_eq!((&a.title, &a.authors, &a.subjects, &a.comments), (&b.title, &b.authors, &b.subjects, &b.comments));
    assert_eq!(a.listing_date, b.listing_date);
}

// ---------------------------------------------------------------- JSONL

#[test]
fn jsonl_kaggle_snapshot_shape_and_bad_lines() {
    let text = concat!(
        r#"{"id":"0704.0001","submitter":"Pavel Nadolsky","authors":"C. Bal\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan","title":"Calculation of prompt diphoton production cross sections at Tevatron and\n  LHC energies","comments":"37 pages, 15 figures; published version","journal-ref":"Phys.Rev.D76:013009,2007","doi":"10.1103/PhysRevD.76.013009","report-no":"ANL-HEP-PR-07-12","categories":"hep-ph","license":null,"abstract":"  A fully differential calculation in perturbative quantum chromodynamics is\npresented for the production of massive photon pairs at hadron colliders.\n","versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"},{"version":"v2","created":"Tue, 24 Jul 2007 20:10:27 GMT"}],"update_date":"2008-11-13","authors_parsed":[["Bal\u00e1zs","C.",""],["Berger","E. L.",""]]}"#,
        "\n",
        r#"{"id":"0704.0002","submitter":"Louis Theran","authors":"Ileana Streinu and Louis Theran","title":"Sparsity-certifying Graph Decompositions","comments":"To appear in Graphs and Combinatorics","journal-ref":null,"doi":null,"report-no":null,"categories":"math.CO cs.CG","license":"http://arxiv.org/licenses/nonexclusive-distrib/1.0/","abstract":"  We describe a new algorithm.\n  A second paragraph.\n","versions":[{"version":"v1","created":"Sat, 31 Mar 2007 02:26:18 GMT"}],"update_date":"2008-12-13"}"#,
        "\n\n   \n",
        "{\"id\": \"2503.00001\", \"title\": \"cut off\n",
        r#"{"id":"not-an-id","title":"x"}"#,
        "\n"
    );
    let parsed = parse_bytes(text.as_bytes(), "kaggle.json").expect("kaggle lines");
    assert_eq!(parsed.format, Format::Jsonl);
    assert_eq!(parsed.papers.len(), 2);
    assert_eq!(parsed.warnings.len(), 2, "{:?}", parsed.warnings);
    assert!(parsed.warnings[0].starts_with("kaggle.json:5:"), "{:?}", parsed.warnings);
    assert!(parsed.warnings[1].starts_with("kaggle.json:6:"), "{:?}", parsed.warnings);

    let a = &parsed.papers[0];
    assert_eq!((a.id.as_str(), a.version, a.kind), ("0704.0001", Some(2), Kind::Snapshot));
    assert_eq!(a.authors, ["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C.-P. Yuan"]);
    assert_eq!(a.title, "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies");
    assert_eq!(a.journal_ref.as_deref(), Some("Phys.Rev.D76:013009,2007"));
    assert_eq!(a.comments.as_deref(), Some("37 pages, 15 figures; published version"));
    // Never listed on a day the library saw: dated by its first version.
    assert_eq!(a.listing_date.as_deref(), Some("2007-04-02"));
    assert!(a.abstract_text.starts_with("A fully differential calculation in perturbative quantum chromodynamics is presented"));
    let b = &parsed.papers[1];
    assert_eq!(b.authors, ["Ileana Streinu", "Louis Theran"]);
    assert_eq!(b.subjects, ["math.CO", "cs.CG"]);
    assert_eq!(b.version, Some(1));
    assert_eq!(b.abstract_text, "We describe a new algorithm.\nA second paragraph.");

    let err = parse_bytes(b"{\"id\": 5}\n{\"title\": \"no id\"}\n{]\n", "bad.jsonl").unwrap_err();
    assert_eq!(err.line, Some(1), "{err}");
    assert!(err.to_string().starts_with("bad.jsonl:1: no readable JSON line (3 bad)"), "{err}");
}

// ---------------------------------------------------------------- bad input

#[test]
fn hostile_input_is_an_error_not_a_panic() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("blank", b"  \n\n\t \n".to_vec()),
        ("binary", (0u8..=255).cycle().take(5000).collect()),
        ("latin-1 junk", vec![0xE9; 400]),
        ("unrelated html", b"<!DOCTYPE html><html><head><title>Weather</title></head><body><p>Sunny</p></body></html>".to_vec()),
        ("abs page", b"<!DOCTYPE html><html><body><h1>arXiv:2411.14419</h1><dl><dt>x</dt><dd>y</dd></dl></body></html>".to_vec()),
        ("other xml", b"<?xml version=\"1.0\"?><note><to>Tove</to><body>x</body></note>".to_vec()),
        ("rss without channel", b"<?xml version=\"1.0\"?><rss version=\"2.0\"></rss>".to_vec()),
        ("feed cut in header", b"<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>arXiv Qu".to_vec()),
        ("rss cut in first item", read_feed(RSS_ALL).as_bytes()[..3000].to_vec()),
        ("json array", b"[{\"id\": \"2503.00001\"}]".to_vec()),
        ("json garbage", b"{not json at all\n{\"also\": \"bad\"\n".to_vec()),
        ("mailing without entries", b"Date: Fri, 3 Mar 23\n\\\\\nnothing here\n\\\\\n".to_vec()),
        ("plain prose", b"Dear colleague,\nplease find attached arXiv:2303.00763.\n".to_vec()),
    ];
    for (what, bytes) in cases {
        let result = parse_bytes(&bytes, what);
        assert!(result.is_err(), "{what}: {:?}", result.map(|p| (p.format, p.papers.len())));
    }
    let err = parse_bytes(b"<!DOCTYPE html><html><body><p>hi</p></body></html>", "page.html").unwrap_err();
    assert!(err.message.contains("article list"), "{err}");
    let err = parse_bytes(&read_feed(RSS_ALL).as_bytes()[..3000], "cut.xml").unwrap_err();
    assert!(err.message.contains("truncated") && err.line.is_some(), "{err}");
}

#[test]
fn truncated_feeds_keep_the_complete_entries_and_warn() {
    let rss = read_feed(RSS_ALL);
    let third = rss.match_indices("<item>").nth(2).map(|(i, _)| i).expect("3 items");
    let parsed = parse_bytes(&rss.as_bytes()[..third + 200], "cut.xml").expect("cut rss");
    assert_eq!(parsed.papers.len(), 2);
    assert!(parsed.warnings.iter().any(|w| w.contains("truncated")), "{:?}", parsed.warnings);

    let atom = read_feed("api-atom-2017__orijtech-arxiv__deep-dream-page0.xml");
    let fifth = atom.match_indices("<entry>").nth(4).map(|(i, _)| i).expect("5 entries");
    let parsed = parse_bytes(&atom.as_bytes()[..fifth + 300], "cut.atom").expect("cut atom");
    assert_eq!(parsed.papers.len(), 4);
    assert_eq!(parsed.warnings.len(), 1, "{:?}", parsed.warnings);

    // Malformed (not just cut) XML: a mismatched end tag in the 2nd entry.
    let broken = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>http://arxiv.org/abs/2101.00001v1</id>\
        <title>Fine</title></entry>\n<entry><id>http://arxiv.org/abs/2101.00002v1</id><title>Broken</titel></entry></feed>";
    let parsed = parse_bytes(broken.as_bytes(), "broken.atom").expect("first entry survives");
    assert_eq!(parsed.papers.len(), 1);
    assert!(parsed.warnings[0].starts_with("broken.atom:2: malformed XML"), "{:?}", parsed.warnings);

    let mailing = read_feed("mailing-new__arxiv-browse__q-fin.txt");
    let cut = mailing.find("arXiv:2303.09407").expect("entry") + 400;
    let parsed = parse_bytes(&mailing.as_bytes()[..cut], "cut.txt").expect("cut mailing");
    assert!(parsed.papers.iter().all(|p| p.id != "2303.09407"));
    assert!(parsed.warnings.iter().any(|w| w.contains("arXiv:2303.09407") && w.contains("truncated")), "{:?}", parsed.warnings);
}

#[test]
fn invalid_entries_are_skipped_with_warnings() {
    let atom = "<feed xmlns=\"http://www.w3.org/2005/Atom\">\
        <entry><id>http://arxiv.org/abs/2101.00001v2</id><title>Good</title><summary>S</summary></entry>\
        <entry><id>http://example.com/not-arxiv</id><title>Bad id</title></entry>\
        <entry><id>http://arxiv.org/abs/2101.00003v1</id><title>  </title></entry></feed>";
    let parsed = parse_bytes(atom.as_bytes(), "x.atom").expect("one good entry");
    assert_eq!(parsed.papers.len(), 1);
    assert_eq!(parsed.warnings.len(), 2, "{:?}", parsed.warnings);

    let rss = "<?xml version='1.0'?><rss version='2.0'><channel><title>cs updates on arXiv.org</title>\
        <item><title>No id anywhere</title><description>Abstract: x</description></item>\
        <item><title>Good</title><link>https://arxiv.org/abs/2411.00001</link><description>arXiv:2411.00001v1 Announce Type: weird \nAbstract: y</description></item>\
        </channel></rss>";
    let parsed = parse_bytes(rss.as_bytes(), "x.rss").expect("one good item");
    assert_eq!(parsed.papers.len(), 1);
    assert_eq!(parsed.papers[0].kind, Kind::New);
    assert_eq!(parsed.warnings.len(), 2, "{:?}", parsed.warnings);
}

/// Every prefix (about every 200 bytes, at char boundaries) of a few inputs
/// must parse or fail cleanly, never panic, and never invent papers.
#[test]
fn every_prefix_parses_without_panicking() {
    let corpus_head = {
        use std::io::Read;
        let gz = std::fs::read(shared().join("data/corpus/arxiv-cs-2025-2026.jsonl.gz")).expect("corpus");
        let mut text = String::new();
        let mut decoder = flate2::read::GzDecoder::new(&gz[..]);
        let mut buf = vec![0u8; 60_000];
        let n = decoder.read(&mut buf).expect("gunzip");
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
        text
    };
    let rss = read_feed(RSS_ALL);
    let html = read_feed(HTML_PASTWEEK);
    let inputs: Vec<(&str, String)> = vec![
        ("math.AG mailing", read_feed("mailing-new__arxiv-browse__math.AG.txt")),
        ("q-fin mailing", read_feed("mailing-new__arxiv-browse__q-fin.txt")),
        ("pastweek text", read_feed("listing-pastweek__arxiv-browse__astro-ph.txt")[..20_000].to_string()),
        ("atom 2016", read_feed("api-atom-2016__arxiv.py-pr3__id_list-1111.2011v2.xml")),
        ("atom 2026", read_feed("api-atom-2026__arxiv.py__q_testing_s0_m10_bc5a6c384fe9.xml")),
        ("rss head", rss[..rss.char_indices().nth(30_000).map_or(rss.len(), |(i, _)| i)].to_string()),
        ("html head", html[..html.char_indices().nth(40_000).map_or(html.len(), |(i, _)| i)].to_string()),
        ("new page", NEW_PAGE.to_string()),
        ("corpus head", corpus_head),
    ];
    for (what, text) in &inputs {
        let full = parse_bytes(text.as_bytes(), what).map(|p| p.papers.len()).unwrap_or(0);
        let mut end = 0;
        while end < text.len() {
            end = (end + 200).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            let prefix = &text[..end];
            let outcome = std::panic::catch_unwind(|| parse_bytes(prefix.as_bytes(), "prefix"));
            let Ok(result) = outcome else {
                panic!("{what}: panic on the first {end} bytes");
            };
            if let Ok(parsed) = result {
                assert!(parsed.papers.len() <= full, "{what} @ {end}: {} > {full}", parsed.papers.len());
                for p in &parsed.papers {
                    assert!(!p.id.is_empty() && !p.title.is_empty(), "{what} @ {end}: {p:?}");
                }
            }
        }
    }
}

/// A byte >= 0x80 (read as U+FFFD) or a multi-byte character inside a date
/// once panicked in `parse` and `ingest`: the date parsers sliced by byte.
#[test]
fn a_non_ascii_byte_in_a_date_is_no_panic() {
    let atom = read_feed("api-atom-2016__arxiv.py-pr3__id_list-1111.2011v2.xml");
    let entry = atom.find("<entry>").expect("entry");
    let open = entry + atom[entry..].find("<updated>").expect("updated") + "<updated>".len();
    let close = open + atom[open..].find("</updated>").expect("closed");
    for date in [&b"2016-12\xff"[..], b"25-\xe2\x80\x9908-1", b"\xff\xff\xff\xff"] {
        let bytes = [&atom.as_bytes()[..open], date, &atom.as_bytes()[close..]].concat();
        let outcome = std::panic::catch_unwind(|| parse_bytes(&bytes, "mutated.atom"));
        let parsed = outcome.unwrap_or_else(|_| panic!("panic on <updated>{}", String::from_utf8_lossy(date)));
        assert!(parsed.is_ok(), "{date:?}: {parsed:?}");
    }
}

/// The same audit for every format: a stray byte or a multi-byte character
/// at any position of a small input of each kind parses or fails cleanly.
#[test]
fn non_ascii_anywhere_is_no_panic() {
    let snapshot =
        std::fs::read_to_string(shared().join("fixtures/snapshot/arxiv-metadata-oai-snapshot.sample.json")).expect("snapshot sample");
    let head = |s: &str, n: usize| s[..s.char_indices().nth(n).map_or(s.len(), |(i, _)| i)].to_string();
    let rss = read_feed(RSS_ALL);
    let rss_head = {
        let end = rss.match_indices("</item>").nth(1).map(|(i, _)| i + 7).expect("2 items");
        format!("{}</channel></rss>", &rss[..end])
    };
    let inputs = [
        ("atom", read_feed("api-atom-2016__arxiv.py-pr3__id_list-1111.2011v2.xml")),
        ("rss", rss_head),
        ("mailing", head(&read_feed("mailing-new__arxiv-browse__q-fin.txt"), 6000)),
        ("pastweek text", head(&read_feed("listing-pastweek__arxiv-browse__astro-ph.txt"), 6000)),
        ("page text", head(&std::fs::read_to_string(shared().join("fixtures/listings/cs.DC-2026-03-03.txt")).unwrap(), 6000)),
        ("new page", NEW_PAGE.to_string()),
        ("jsonl", head(&snapshot, 6000)),
    ];
    for (what, text) in &inputs {
        for insert in [&b"\xff"[..], "\u{2019}".as_bytes(), "\u{fffd}".as_bytes()] {
            for at in (0..text.len()).step_by(5).filter(|&i| text.is_char_boundary(i)) {
                let bytes = [&text.as_bytes()[..at], insert, &text.as_bytes()[at..]].concat();
                if std::panic::catch_unwind(|| parse_bytes(&bytes, what)).is_err() {
                    panic!("{what}: panic with {insert:?} at byte {at}");
                }
            }
        }
    }
}

/// html5ever's time grew with nesting depth times size (200k nested
/// elements took over 300 s): a page nested past the bound is refused with
/// a clear error before it is parsed, and a real page inside a few hundred
/// wrappers still parses.
#[test]
fn deeply_nested_html_is_refused_not_parsed() {
    let depth = 200_000;
    let page =
        format!("<!DOCTYPE html><html><body><dl id='articles'>\n{}{}</dl></body></html>", "<div>".repeat(depth), "</div>".repeat(depth));
    let err = parse_bytes(page.as_bytes(), "deep.html").unwrap_err();
    assert!(err.message.contains("nested more than 512"), "{err}");
    assert_eq!(err.line, Some(2), "{err}");

    let plain = parse_bytes(NEW_PAGE.as_bytes(), "new.html").expect("new page");
    let dl = NEW_PAGE.find("<dl").expect("list");
    let end = NEW_PAGE.rfind("</dl>").expect("list end") + "</dl>".len();
    let wrapped = format!("{}{}{}{}{}", &NEW_PAGE[..dl], "<div>".repeat(400), &NEW_PAGE[dl..end], "</div>".repeat(400), &NEW_PAGE[end..]);
    let parsed = parse_bytes(wrapped.as_bytes(), "wrapped.html").expect("wrapped page");
    assert_eq!(parsed.papers, plain.papers.iter().map(|p| Paper { source: "wrapped.html".into(), ..p.clone() }).collect::<Vec<_>>());
}

/// A feed with a DOCTYPE internal subset was "not an arXiv listing": the
/// detector took the first `>` inside the subset for the doctype's end. It
/// is a feed; its entities are still never expanded.
#[test]
fn feeds_with_an_internal_doctype_subset_are_feeds() {
    let subset = "<!DOCTYPE doc [\n  <!ENTITY a \"AAAAAAAAAA\">\n  <!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n]>\n";
    let rss = format!(
        "<?xml version='1.0'?>\n{subset}<rss version='2.0'><channel><title>cs.DC updates</title>\
         <item><title>Entity &b; here</title><link>https://arxiv.org/abs/2411.00001</link>\
         <description>arXiv:2411.00001v1 Announce Type: new \nAbstract: x</description></item></channel></rss>"
    );
    let parsed = parse_bytes(rss.as_bytes(), "subset.rss").expect("an RSS feed");
    assert_eq!(parsed.format, Format::Rss);
    assert_eq!(parsed.papers[0].title, "Entity &b; here");
    let atom = format!(
        "{subset}<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>http://arxiv.org/abs/2101.00001v1</id>\
         <title>T &b;</title><summary>S</summary></entry></feed>"
    );
    let parsed = parse_bytes(atom.as_bytes(), "subset.atom").expect("an Atom feed");
    assert_eq!((parsed.format, parsed.papers[0].title.as_str()), (Format::Atom, "T &b;"));
}
