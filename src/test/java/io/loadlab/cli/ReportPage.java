package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a person sees in a rendered report: its tables' cells as the DOM holds them, rounded as
 * "Figures for people" says, and, in a screenshot, charts as wide as the page's content and table
 * cells that show exactly their (rounded) text. Measurements come from a script added to a copy of
 * the page, which writes the layout Chromium computed into the DOM it dumps.
 */
final class ReportPage {

    /** Column headings of the report's tables, by the figure they hold. */
    static final Set<String> RATIO_COLUMNS = Set.of("ratio", "ratio 95% CI", "spread", "builtin_spread", "spearman");
    static final Set<String> RPS_COLUMNS = Set.of("mean rps", "± 95% CI", "builtin mean rps", "requests",
            "mean requests/load CPU-s", "builtin requests/load CPU-s");
    static final Set<String> P_COLUMNS = Set.of("p", "p_mw", "p_welch", "p_holm", "p_none", "p_equivalence");
    static final Set<String> MICROS_COLUMNS = Set.of("p50_us", "p90_us", "p99_us", "p999_us", "p9999_us", "max_us");
    static final Set<String> CV_COLUMNS = Set.of("CV");

    private static final Pattern NUMBER = Pattern.compile("-?[0-9][0-9,]*(\\.[0-9]+)?");
    private static final Pattern WHOLE_WITH_SEPARATORS = Pattern.compile("-?[0-9]{1,3}(,[0-9]{3})*");
    private static final Pattern P_VALUE = Pattern.compile("< 0\\.001|0\\.0*[1-9][0-9]|[1-9]\\.[0-9]");
    private static final Pattern PERCENT = Pattern.compile("[0-9]+(\\.[0-9]+)?%");

    /** Marks the element the measuring script writes its JSON into. */
    static final String MEASURE_ID = "loadlab-measure";

    /**
     * Added before {@code </body>}: on load it writes the page's content width, every image's box
     * and, for each numeric cell of every table, the box of its text and its column's heading.
     */
    static final String MEASURING_SCRIPT = """
            <script>
            window.addEventListener('load', function () {
              function box(r) { return [r.left, r.top, r.width, r.height]; }
              var nb = document.querySelector('.jp-Notebook');
              var style = getComputedStyle(nb);
              var out = {dpr: window.devicePixelRatio,
                         content: nb.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
                         images: [], cells: []};
              document.querySelectorAll('img').forEach(function (i) {
                out.images.push({box: box(i.getBoundingClientRect()), natural: i.naturalWidth});
              });
              var ctx = document.createElement('canvas').getContext('2d');
              function widest(font, texts) {
                ctx.font = font;
                return Math.max.apply(null, texts.map(function (t) { return ctx.measureText(t).width; }));
              }
              document.querySelectorAll('table').forEach(function (t) {
                var heads = Array.from(t.querySelectorAll('thead th')).map(function (h) { return h.textContent; });
                t.querySelectorAll('tbody tr').forEach(function (tr) {
                  Array.from(tr.children).forEach(function (td, c) {
                    if (td.style.textAlign !== 'right' || td.textContent === '') { return; }
                    var range = document.createRange();
                    range.selectNodeContents(td);
                    var font = getComputedStyle(td).font;
                    out.cells.push({column: heads[c], text: td.textContent, cell: box(td.getBoundingClientRect()),
                                    ink: box(range.getBoundingClientRect()),
                                    widestRatio: widest(font, ['0.000', '0,000']),
                                    widestP: widest(font, ['< 0.001', '0.0000'])});
                  });
                });
              });
              var pre = document.createElement('pre');
              pre.id = '%s';
              pre.textContent = JSON.stringify(out);
              document.body.appendChild(pre);
            });
            </script>
            """.formatted(MEASURE_ID);

    private ReportPage() {
    }

    /** The page with the measuring script. */
    static String withMeasuringScript(String html) {
        assertTrue(html.contains("</body>"), "the report has no </body>");
        return html.replace("</body>", MEASURING_SCRIPT + "</body>");
    }

    /** The measurements in a dumped DOM of {@link #withMeasuringScript}'s page. */
    static JsonNode measurements(String dom) throws IOException {
        Matcher m = Pattern.compile("<pre id=\"" + MEASURE_ID + "\">(.*?)</pre>", Pattern.DOTALL).matcher(dom);
        assertTrue(m.find(), "the measuring script wrote nothing");
        return new ObjectMapper().readTree(unescape(m.group(1)));
    }

    /**
     * Every table cell a person reads is rounded: ratios to 3 significant digits at most, rps and µs
     * as whole numbers with separators, p-values to 2 significant digits or {@code < 0.001}, CVs as
     * percentages of 3 significant digits. Each kind must occur, so that no check passes on nothing.
     */
    static void assertRounded(String page) {
        Map<String, List<String>> columns = columns(page);
        int ratios = check(columns, RATIO_COLUMNS, cell -> numbers(cell).allMatch(n -> significant(n) <= 3));
        int rps = check(columns, RPS_COLUMNS, cell -> WHOLE_WITH_SEPARATORS.matcher(cell).matches());
        int ps = check(columns, P_COLUMNS, cell -> P_VALUE.matcher(cell).matches());
        int micros = check(columns, MICROS_COLUMNS, cell -> WHOLE_WITH_SEPARATORS.matcher(cell).matches());
        int cvs = check(columns, CV_COLUMNS, cell -> PERCENT.matcher(cell).matches() && significant(cell) <= 3);
        assertTrue(ratios > 0 && rps > 0 && ps > 0 && micros > 0 && cvs > 0, "cells checked: ratio " + ratios
                + ", rps " + rps + ", p " + ps + ", µs " + micros + ", CV " + cvs);
        assertTrue(columns.getOrDefault("mean rps", List.of()).stream().anyMatch(c -> c.contains(",")),
                "no rps of 1,000 or more, so the separators are not seen: " + columns.get("mean rps"));
    }

    /** Every chart is as wide as the page's content, in the DOM and in the screenshot. */
    static void assertChartsFillThePage(JsonNode m, BufferedImage shot) {
        assertEquals(1.0, m.path("dpr").asDouble(), "one screenshot pixel per CSS pixel");
        double content = m.path("content").asDouble();
        int charts = 0;
        for (JsonNode image : m.path("images")) {
            double[] b = box(image.path("box"));
            assertTrue(b[2] >= 0.97 * content, "a chart " + b[2] + " px wide on a page of " + content
                    + " px: it does not fill the page");
            assertTrue(image.path("natural").asInt() >= 0.97 * b[2], "a chart of " + image.path("natural").asInt()
                    + " px is stretched to " + b[2] + " px");
            if (b[1] + b[3] <= shot.getHeight()) {
                // Drawn from edge to edge: the axis on the left, the legend's frame on the right.
                int[] ink = inkColumns(shot, b, 250);
                assertTrue(ink[0] - b[0] < 0.05 * b[2] && b[0] + b[2] - ink[1] < 0.05 * b[2],
                        "the chart at y " + b[1] + " is drawn from x " + ink[0] + " to " + ink[1] + " of " + b[0]
                                + " to " + (b[0] + b[2]));
                charts++;
            }
        }
        assertTrue(charts >= 2, "only " + charts + " charts lie within the screenshot");
    }

    /**
     * The screenshot shows each number of the tables as the DOM holds it, no wider: its ink spans the
     * box the browser laid its (rounded) text out in, and nothing more of the cell; and a ratio or a
     * p-value is drawn no wider than the widest rounded one ({@code 0.000}, {@code < 0.001}) in that
     * cell's font, which a ratio of 6 digits ({@code 0.613655}) is.
     */
    static void assertCellsShowTheirText(JsonNode m, BufferedImage shot) {
        int checked = 0;
        for (JsonNode cell : m.path("cells")) {
            double[] c = box(cell.path("cell"));
            double[] text = box(cell.path("ink"));
            if (c[1] + c[3] > shot.getHeight() || !RPS_COLUMNS.contains(cell.path("column").asText())
                    && !RATIO_COLUMNS.contains(cell.path("column").asText())
                    && !P_COLUMNS.contains(cell.path("column").asText())) {
                continue;
            }
            int[] ink = inkColumns(shot, c, 160);
            String what = "cell '" + cell.path("text").asText() + "' of " + cell.path("column").asText() + " at "
                    + Math.round(c[0]) + "," + Math.round(c[1]);
            assertTrue(ink[0] >= 0, what + " shows nothing");
            assertTrue(Math.abs(ink[0] - text[0]) <= 3 && Math.abs(ink[1] - (text[0] + text[2])) <= 3,
                    what + ": ink from x " + ink[0] + " to " + ink[1] + ", its text from " + text[0] + " to "
                            + (text[0] + text[2]));
            String column = cell.path("column").asText();
            double widest = RATIO_COLUMNS.contains(column) ? cell.path("widestRatio").asDouble()
                    : P_COLUMNS.contains(column) ? cell.path("widestP").asDouble() : Double.POSITIVE_INFINITY;
            assertTrue(ink[1] - ink[0] <= widest + 2, what + " is drawn " + (ink[1] - ink[0])
                    + " px wide, wider than any rounded figure of its kind (" + widest + " px)");
            checked++;
        }
        assertTrue(checked >= 20, "only " + checked + " numeric cells within the screenshot");
    }

    /** The first and last column in a box holding a pixel darker than {@code below} (each channel), or -1s. */
    private static int[] inkColumns(BufferedImage shot, double[] b, int below) {
        int x0 = (int) Math.max(0, Math.floor(b[0]));
        int x1 = (int) Math.min(shot.getWidth() - 1, Math.ceil(b[0] + b[2]) - 1);
        int y0 = (int) Math.max(0, Math.floor(b[1]));
        int y1 = (int) Math.min(shot.getHeight() - 1, Math.ceil(b[1] + b[3]) - 1);
        int first = -1;
        int last = -1;
        for (int x = x0; x <= x1; x++) {
            for (int y = y0; y <= y1; y++) {
                int rgb = shot.getRGB(x, y);
                if (((rgb >> 16) & 0xFF) < below && ((rgb >> 8) & 0xFF) < below && (rgb & 0xFF) < below) {
                    first = first < 0 ? x : first;
                    last = x + 1;
                    break;
                }
            }
        }
        return new int[] {first, last};
    }

    private static double[] box(JsonNode b) {
        return new double[] {b.get(0).asDouble(), b.get(1).asDouble(), b.get(2).asDouble(), b.get(3).asDouble()};
    }

    /** Non-empty cells of the named columns that fail the check; fails naming them, else returns how many passed. */
    private static int check(Map<String, List<String>> columns, Set<String> names,
                             java.util.function.Predicate<String> rounded) {
        List<String> bad = new ArrayList<>();
        int good = 0;
        for (String name : names) {
            for (String cell : columns.getOrDefault(name, List.of())) {
                if (cell.isEmpty()) {
                    continue;
                }
                if (rounded.test(cell)) {
                    good++;
                } else {
                    bad.add(name + ": '" + cell + "'");
                }
            }
        }
        assertTrue(bad.isEmpty(), "cells not rounded for people: " + bad);
        return good;
    }

    /** The body cells of every table, by column heading (tables sharing a heading add to it). */
    static Map<String, List<String>> columns(String page) {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        Matcher table = Pattern.compile("<table>(.*?)</table>", Pattern.DOTALL).matcher(page);
        while (table.find()) {
            List<String> heads = new ArrayList<>();
            Matcher th = Pattern.compile("<th>(.*?)</th>", Pattern.DOTALL).matcher(table.group(1));
            while (th.find()) {
                heads.add(unescape(th.group(1)));
            }
            Matcher tr = Pattern.compile("<tr>(.*?)</tr>", Pattern.DOTALL).matcher(table.group(1));
            while (tr.find()) {
                Matcher td = Pattern.compile("<td[^>]*>(.*?)</td>", Pattern.DOTALL).matcher(tr.group(1));
                for (int c = 0; td.find() && c < heads.size(); c++) {
                    columns.computeIfAbsent(heads.get(c), k -> new ArrayList<>()).add(unescape(td.group(1)).strip());
                }
            }
        }
        return columns;
    }

    private static java.util.stream.Stream<String> numbers(String cell) {
        List<String> found = new ArrayList<>();
        Matcher n = NUMBER.matcher(cell);
        while (n.find()) {
            found.add(n.group());
        }
        return found.stream();
    }

    /** Significant digits of a number as written: {@code 0.0450} has 3, {@code 1,230} has 3, {@code 1.00} has 3. */
    static int significant(String number) {
        String digits = number.replaceAll("[^0-9.]", "");
        if (digits.contains(".")) {
            return digits.replace(".", "").replaceFirst("^0+", "").length();
        }
        return digits.replaceFirst("^0+", "").replaceFirst("0+$", "").length();
    }

    private static String unescape(String s) {
        return s.replaceAll("<[^>]+>", "").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&#39;", "'").replace("&nbsp;", " ").replace("&amp;", "&");
    }
}
