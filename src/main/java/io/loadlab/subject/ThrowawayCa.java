package io.loadlab.subject;

import io.loadlab.host.Executables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority made for one experiment (or one test) with {@code openssl}, and the
 * server certificates it signs. Keys are ECDSA P-256 (what certbot issues by default since 2.0): the
 * cost of TLS measured with them is that of a modern deployment, not of RSA-2048 handshakes.
 * Server certificates name {@code localhost} and {@code 127.0.0.1}, where the harness runs subjects, or
 * the subject host's address ({@code run --subject-host}), whose agent gets the certificate and key.
 * Nothing here is secret beyond the experiment: the folder may be deleted once it ends.
 *
 * @param dir    the folder holding the CA's files ({@code ca.pem}, {@code ca.key}, its database)
 * @param caCert the CA's certificate (PEM), what clients trust ({@code --cacert})
 */
public record ThrowawayCa(Path dir, Path caCert) {

    /**
     * A server certificate and its key, as a start command's {@code {cert}} and {@code {key}}.
     *
     * @param cert the certificate (PEM)
     * @param key  its private key (PEM, PKCS#8, unencrypted)
     */
    public record ServerFiles(Path cert, Path key) {}

    private static final DateTimeFormatter OPENSSL_TIME =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final long COMMAND_TIMEOUT_SECONDS = 60;

    /** The {@code openssl ca} configuration: names are copied from the request, SANs included. */
    private static final String CONFIG = String.join("\n",
            "[ ca ]", "default_ca = throwaway", "",
            "[ throwaway ]", "dir = .", "database = index.txt", "new_certs_dir = issued", "serial = serial",
            "default_md = sha256", "policy = any_name", "copy_extensions = copy", "unique_subject = no",
            "x509_extensions = server_ext", "",
            "[ any_name ]", "commonName = supplied", "",
            "[ server_ext ]", "basicConstraints = critical,CA:FALSE",
            "keyUsage = critical,digitalSignature,keyEncipherment", "extendedKeyUsage = serverAuth",
            "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid", "");

    /**
     * Makes a CA in {@code dir} (created when missing), valid for 30 days.
     *
     * @throws SubjectException when {@code openssl} is missing or fails, with its output
     */
    public static ThrowawayCa create(Path dir) {
        try {
            Files.createDirectories(dir.resolve("issued"));
            Files.writeString(dir.resolve("ca.cnf"), CONFIG, StandardCharsets.US_ASCII);
            Files.writeString(dir.resolve("index.txt"), "", StandardCharsets.US_ASCII);
            Files.writeString(dir.resolve("serial"), "1000\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new SubjectException("cannot write the throw-away CA into " + dir + ": " + e.getMessage(), e);
        }
        openssl(dir, List.of("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "30", "-subj", "/CN=Loadlab throw-away CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"));
        return new ThrowawayCa(dir, dir.resolve("ca.pem"));
    }

    /** What a certificate for the harness's own host names: {@code localhost} and {@code 127.0.0.1}. */
    public static final List<String> LOCAL_NAMES = List.of("DNS:localhost", "IP:127.0.0.1");

    /**
     * A server certificate for {@code localhost} and {@code 127.0.0.1}, valid for 30 days from now.
     *
     * @param name file name stem: {@code name.pem}, {@code name.key}
     */
    public ServerFiles issue(String name) {
        return issue(name, LOCAL_NAMES);
    }

    /**
     * A server certificate for {@code altNames} (such as {@link #altName} of a subject host's address),
     * valid for 30 days from now.
     *
     * @param name file name stem: {@code name.pem}, {@code name.key}
     */
    public ServerFiles issue(String name, List<String> altNames) {
        return issue(name, altNames, Instant.now().minusSeconds(3600), Instant.now().plusSeconds(30L * 86_400));
    }

    /**
     * The subject alternative name that a client connecting to {@code host} checks: {@code IP:host}
     * for an IPv4 or IPv6 literal (clients send no SNI for an address and match IP SANs), otherwise
     * {@code DNS:host}.
     *
     * @param host a host name or IP literal, without brackets
     */
    public static String altName(String host) {
        boolean ip = host.matches("\\d{1,3}(\\.\\d{1,3}){3}") || host.indexOf(':') >= 0;
        return (ip ? "IP:" : "DNS:") + host;
    }

    /**
     * A server certificate with the given subject alternative names and validity (a test may ask
     * for one that has expired, or one for another host).
     *
     * @param altNames such as {@code DNS:localhost}, {@code IP:127.0.0.1}
     */
    public ServerFiles issue(String name, List<String> altNames, Instant notBefore, Instant notAfter) {
        if (!name.matches("[a-z0-9-]+")) {
            throw new IllegalArgumentException("certificate name must be lower-case letters, digits and dashes: " + name);
        }
        String cn = altNames.isEmpty() ? "localhost" : altNames.get(0).replaceFirst("^[A-Z]+:", "");
        openssl(dir, List.of("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + cn,
                "-addext", "subjectAltName=" + String.join(",", altNames)));
        openssl(dir, List.of("ca", "-batch", "-notext", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key",
                "-in", name + ".csr", "-out", name + ".pem",
                "-startdate", OPENSSL_TIME.format(notBefore), "-enddate", OPENSSL_TIME.format(notAfter)));
        return new ServerFiles(dir.resolve(name + ".pem"), dir.resolve(name + ".key"));
    }

    /**
     * A self-signed server certificate for {@code localhost} and {@code 127.0.0.1}, signed by no CA
     * (what a client without {@code --cacert} must refuse).
     */
    public static ServerFiles selfSigned(Path dir, String name) {
        openssl(dir, List.of("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", name + ".key", "-out", name + ".pem", "-days", "30", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"));
        return new ServerFiles(dir.resolve(name + ".pem"), dir.resolve(name + ".key"));
    }

    /** Whether {@code openssl} can be run here (the TLS protocol variants need it). */
    public static boolean available() {
        return Executables.find("openssl").isPresent();
    }

    private static void openssl(Path dir, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(args);
        Path log = dir.resolve("openssl.log");
        try {
            Files.createDirectories(dir);
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            if (!p.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new SubjectException("openssl " + args.get(0) + " took over " + COMMAND_TIMEOUT_SECONDS + " s in " + dir);
            }
            if (p.exitValue() != 0) {
                throw new SubjectException("openssl " + args.get(0) + " failed (exit " + p.exitValue() + ") in " + dir
                        + "; its output ends with:\n" + LogTail.of(log, 10));
            }
        } catch (IOException e) {
            throw new SubjectException("cannot run openssl (the throw-away CA of the TLS variants needs it:"
                    + " apt-get install openssl): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SubjectException("interrupted while making the throw-away CA in " + dir, e);
        }
    }
}
