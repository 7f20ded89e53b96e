"""Reading Nsight Compute's source page exports, for the scripts that turn
them into records (inputs_to_records.py for the test inputs,
corpus_to_records.py for the corpus programs).

`ncu -i REP --page source --csv --print-source cuda,sass` writes a series of
blocks, one per (file, function) of each profiled launch:
  "File Path","<file>"
  "Function Name","<function>"
  <header>        (re-read every time: columns differ between blocks)
  "<line>","<source>",...        a source line and its totals
  "","","<address>","<sass>",... the SASS instructions of that line
"""


def number(text):
    """A metric cell as a float: ncu writes thousands separators, and "-",
    "n/a" or nothing where a metric does not apply (None then)."""
    text = (text or "").replace(",", "").strip()
    if text in ("", "-", "n/a"):
        return None
    try:
        return float(text)
    except ValueError:
        return None


def source_blocks(rows):
    """Yields (file, function, header, [(line, row, is_source_line)]) for
    every block of a source export (rows as csv.reader gives them), each
    SASS instruction once (the export lists them twice, once per view),
    under the last source line above it."""
    i = 0
    while i < len(rows):
        row = rows[i]
        if not (len(row) == 2 and row[0] == "File Path"):
            i += 1
            continue
        file_path = row[1]
        function = ""
        i += 1
        if i < len(rows) and len(rows[i]) == 2 and rows[i][0] == "Function Name":
            function = rows[i][1]
            i += 1
        header = rows[i] if i < len(rows) else []
        i += 1
        line = None
        seen = set()
        sass = []
        while i < len(rows) and not (len(rows[i]) == 2 and rows[i][0] == "File Path"):
            r = rows[i]
            i += 1
            if len(r) < 4:
                continue
            if r[0] != "":
                try:
                    line = int(r[0])
                except ValueError:
                    line = None
                sass.append((line, r, True))
                continue
            address = r[2]
            if address in ("", "...") or address in seen:
                continue
            seen.add(address)
            sass.append((line, r, False))
        yield file_path, function, header, sass
