package io.loadlab.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;

/**
 * Before a run, one connection that speaks the run's protocol, so that a wrong certificate, a server
 * without TLS, without h2 in its ALPN or without h2c ends the run at once with one line that says
 * what to do (exit code 1), instead of a run of {@code tls} errors. The TLS check uses a context of
 * its own: its session must not let the run's first connection resume.
 */
final class ProtocolPreflight {

    /** An empty SETTINGS frame: length 0, type 4, no flags, stream 0. */
    private static final byte[] EMPTY_SETTINGS = {0, 0, 0, 4, 0, 0, 0, 0, 0};

    /**
     * The end of the check's pipeline. A failed handshake fails the handshake future, which says why
     * in one line, and the SslHandler also fires the exception down the pipeline: left unhandled there,
     * Netty would log it, stack trace and all, on standard error before that line.
     */
    private static final ChannelHandler HANDSHAKE_ONLY = new HandshakeOnly();

    @ChannelHandler.Sharable
    private static final class HandshakeOnly extends ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // the handshake future carries the cause
        }
    }

    private ProtocolPreflight() {
    }

    /**
     * Checks the TLS handshake (and ALPN for h2) of {@code https://} runs, and the HTTP/2 preface of h2c runs.
     *
     * @throws LoadException (failed) naming what is wrong and what to do
     */
    static void check(LoadSpec spec, InetSocketAddress address, EventLoopGroup group, Transport transport) {
        if (spec.request().target().tls()) {
            tls(spec, address, group, transport);
        } else if (spec.protocol() == Protocol.H2C) {
            h2c(spec, address);
        }
    }

    private static void tls(LoadSpec spec, InetSocketAddress address, EventLoopGroup group, Transport transport) {
        Target t = spec.request().target();
        TlsClient client = TlsClient.of(spec);
        SslHandler[] ssl = new SslHandler[1];
        ChannelFuture connect = new Bootstrap().group(group).channel(transport.channelClass())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, spec.connectTimeout().toMillis()))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ssl[0] = client.newHandler(ch.alloc());
                        ch.pipeline().addLast(ssl[0], HANDSHAKE_ONLY);
                    }
                }).connect(address);
        long waitMillis = 2 * spec.connectTimeout().toMillis() + 1000;
        Channel ch = connect.channel();
        try {
            if (!connect.awaitUninterruptibly(waitMillis) || !connect.isSuccess()) {
                throw LoadException.failed("cannot connect to " + t.hostHeader() + " for the TLS handshake: "
                        + (connect.cause() == null ? "no answer" : connect.cause().getMessage()), connect.cause());
            }
            Future<Channel> handshake = ssl[0].handshakeFuture();
            if (!handshake.awaitUninterruptibly(waitMillis)) {
                throw LoadException.failed("no TLS handshake with " + t.hostHeader() + " within " + waitMillis
                        + "ms: does that port serve TLS?", null);
            }
            if (!handshake.isSuccess()) {
                throw LoadException.failed("TLS handshake with " + t.hostHeader() + " failed: "
                        + explain(spec, handshake.cause()), handshake.cause());
            }
            String alpn = ssl[0].applicationProtocol();
            if (spec.protocol() == Protocol.H2 && !ApplicationProtocolNames.HTTP_2.equals(alpn)) {
                throw LoadException.failed("the server at " + t.hostHeader() + " did not choose h2 in ALPN (it chose "
                        + (alpn == null ? "nothing" : "'" + alpn + "'") + "): it does not serve HTTP/2 over TLS;"
                        + " drop --h2 to load it over HTTP/1.1", null);
            }
        } finally {
            ch.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
        }
    }

    /** The certificate check's own words, or what a handshake alert means for the user. */
    static String explain(LoadSpec spec, Throwable cause) {
        for (Throwable c = cause; c != null; c = c.getCause()) {
            if (c instanceof CertificateException && c.getCause() instanceof CertificateException) {
                return c.getMessage(); // CertificateCheck's line
            }
            if (c instanceof NotSslRecordException) {
                return "the server does not speak TLS on that port: use http://";
            }
        }
        String m = String.valueOf(cause == null ? null : cause.getMessage()).toUpperCase(Locale.ROOT);
        String versions = spec.tls().version().map(v -> "TLS " + v.protocolName().substring(4)).orElse("TLS 1.2 or 1.3");
        if (m.contains("PROTOCOL_VERSION") || m.contains("UNSUPPORTED_PROTOCOL") || m.contains("PROTOCOL IS DISABLED")) {
            return "the server does not accept " + versions + ": choose another --tls-version or update the server";
        }
        if (m.contains("HANDSHAKE_FAILURE") || m.contains("NO_SHARED_CIPHER") || m.contains("NO APPROPRIATE")
                || m.contains("CIPHER")) {
            return "the server shares no cipher suite with this client (" + versions + "): check --ciphers and"
                    + " --tls13-ciphers";
        }
        if (cause instanceof SSLHandshakeException || cause instanceof javax.net.ssl.SSLException) {
            return cause.getMessage() + ": check that the URL's port serves TLS";
        }
        return cause == null ? "unknown reason" : cause.toString();
    }

    /** Sends the HTTP/2 preface and an empty SETTINGS; a server of h2c answers with SETTINGS. */
    private static void h2c(LoadSpec spec, InetSocketAddress address) {
        Target t = spec.request().target();
        int timeout = (int) Math.min(Integer.MAX_VALUE, spec.connectTimeout().toMillis());
        try (Socket s = new Socket()) {
            s.connect(address, timeout);
            s.setSoTimeout(timeout);
            OutputStream out = s.getOutputStream();
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(EMPTY_SETTINGS);
            out.flush();
            InputStream in = s.getInputStream();
            byte[] head = in.readNBytes(9);
            if (head.length == 9 && head[3] == 4 && head[5] == 0 && head[6] == 0 && head[7] == 0 && head[8] == 0) {
                return;
            }
            String text = new String(head, StandardCharsets.ISO_8859_1);
            throw LoadException.failed("the server at " + t.hostHeader() + " did not answer the HTTP/2 preface with"
                    + " SETTINGS" + (text.startsWith("HTTP/1") ? " (it answered HTTP/1.x)" : head.length == 0
                    ? " (it closed the connection)" : "") + ": it does not serve h2c with prior knowledge; drop --h2c", null);
        } catch (SocketTimeoutException e) {
            throw LoadException.failed("the server at " + t.hostHeader() + " did not answer the HTTP/2 preface within "
                    + timeout + "ms: does it serve h2c with prior knowledge? drop --h2c otherwise", e);
        } catch (IOException e) {
            throw LoadException.failed("cannot check h2c at " + t.hostHeader() + ": " + e.getMessage(), e);
        }
    }
}
