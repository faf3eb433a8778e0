// Preloaded (node --require) into a command the whole-market bench runs: its peak RSS, on stderr at exit.
process.on('exit', () => process.stderr.write(`peak-rss-kb ${process.resourceUsage().maxRSS}\n`));
