package dev.numaspread.kernel.debian;

import java.util.Comparator;

/**
 * The order of Debian package versions ({@code [epoch:]upstream[-revision]}), as dpkg compares them
 * (Debian Policy §5.6.12): epochs as numbers; then upstream and revision each as alternating runs of
 * non-digits, compared character by character with {@code ~} before everything (even the end) and
 * letters before other characters, and digits, compared as numbers. So {@code 6.12.117-1~deb12u1 <
 * 6.12.117-1} and {@code 7.3.4-1~bpo13+1 < 7.3.4-1}.
 */
public final class DebianVersion {

    private DebianVersion() {}

    /** Compares versions as dpkg does: negative when {@code a} is older. */
    public static final Comparator<String> ORDER = DebianVersion::compare;

    public static int compare(String a, String b) {
        int ea = epoch(a), eb = epoch(b);
        if (ea != eb) return Integer.compare(ea, eb);
        String ra = withoutEpoch(a), rb = withoutEpoch(b);
        int c = compareRuns(upstream(ra), upstream(rb));
        return c != 0 ? c : compareRuns(revision(ra), revision(rb));
    }

    /** The upstream part: {@code 6.1.192} of {@code 6.1.192-3}. */
    public static String upstream(String version) {
        String v = withoutEpoch(version);
        int dash = v.lastIndexOf('-');
        return dash < 0 ? v : v.substring(0, dash);
    }

    private static String revision(String v) {
        int dash = v.lastIndexOf('-');
        return dash < 0 ? "" : v.substring(dash + 1);
    }

    private static int epoch(String v) {
        int colon = v.indexOf(':');
        if (colon < 0) return 0;
        try {
            return Integer.parseInt(v.substring(0, colon));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String withoutEpoch(String v) {
        int colon = v.indexOf(':');
        return colon < 0 ? v : v.substring(colon + 1);
    }

    // dpkg's verrevcmp: a non-digit run, then a digit run, until both strings end.
    private static int compareRuns(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() || j < b.length()) {
            while ((i < a.length() && !Character.isDigit(a.charAt(i))) || (j < b.length() && !Character.isDigit(b.charAt(j)))) {
                int ca = i < a.length() ? weight(a.charAt(i)) : 0;
                int cb = j < b.length() ? weight(b.charAt(j)) : 0;
                if (ca != cb) return Integer.compare(ca, cb);
                i++;
                j++;
            }
            while (i < a.length() && a.charAt(i) == '0') i++;
            while (j < b.length() && b.charAt(j) == '0') j++;
            int firstDiff = 0;
            while (i < a.length() && Character.isDigit(a.charAt(i)) && j < b.length() && Character.isDigit(b.charAt(j))) {
                if (firstDiff == 0) firstDiff = Integer.compare(a.charAt(i), b.charAt(j));
                i++;
                j++;
            }
            if (i < a.length() && Character.isDigit(a.charAt(i))) return 1;
            if (j < b.length() && Character.isDigit(b.charAt(j))) return -1;
            if (firstDiff != 0) return firstDiff;
        }
        return 0;
    }

    // A digit ends a non-digit run, so it weighs as the end of the string does.
    private static int weight(char c) {
        if (Character.isDigit(c)) return 0;
        if (Character.isLetter(c)) return c;
        if (c == '~') return -1;
        return c + 256;
    }
}
