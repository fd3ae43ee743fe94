"""The report builder: results files in, a static HTML site out (reports/html/)."""
