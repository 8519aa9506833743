"""Output: every shape a report takes - JSON and CSV, tables and Markdown, SVG diagrams, HTML
pages, annotated SGF copies."""
