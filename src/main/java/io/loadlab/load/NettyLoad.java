package io.loadlab.load;

import io.netty.channel.EventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs a {@link LoadSpec} and returns its {@link LoadResult}.
 *
 * <p>The calling thread coordinates: it starts the event loops, ends the warm-up, collects one
 * {@link IntervalSample} per second from every loop (each loop takes its own snapshot, so
 * counters and histograms of an interval agree exactly) and stops the run. Event-loop threads
 * exist only during {@link #run}; none is left behind.
 */
public final class NettyLoad {

    private NettyLoad() {
    }

    /** Runs the spec without progress callbacks. See {@link #run(LoadSpec, LoadListener)}. */
    public static LoadResult run(LoadSpec spec) {
        return run(spec, LoadListener.NONE);
    }

    /**
     * Runs the spec, blocking until the measured window ends (or every request of a
     * request-count run has ended).
     *
     * @param listener told, on the calling thread, when the window starts, of each second's
     *                 sample as it completes, and when the window ends
     * @throws LoadException when the host does not resolve, the server refuses connections, or (TLS, h2c)
     *                       its certificate, ALPN or preface is wrong before the run starts; per-request
     *                       errors are counted instead
     */
    public static LoadResult run(LoadSpec spec, LoadListener listener) {
        return run(spec, listener, WarmupEnd.CompilerTime::engineSeconds);
    }

    /**
     * The same, with this engine's compiler time read from {@code engineCompilers}: a test that must
     * see the server's compilers alone, whatever the JIT of its own JVM does, passes an empty one.
     */
    static LoadResult run(LoadSpec spec, LoadListener listener, Supplier<OptionalDouble> engineCompilers) {
        Transport transport = spec.transport().resolve();
        InetSocketAddress address = preflight(spec);
        // Built before the loops start: a bad CA file or cipher is a usage error with nothing to shut down.
        Optional<TlsClient> tls = spec.request().target().tls() ? Optional.of(TlsClient.of(spec)) : Optional.empty();
        RunControl control = new RunControl(spec, address, tls);
        IoHandlerFactory io = transport.ioHandlerFactory();
        // Only a fixed rate waits for due times; the closed loop runs on Netty's own handler.
        Optional<Pacer.Factory> pacers = spec.model() instanceof LoadModel.FixedRate f
                ? Optional.of(new Pacer.Factory(io, f.paceSlack().toNanos())) : Optional.empty();
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(spec.threads(),
                new DefaultThreadFactory("loadlab-load", true), pacers.<IoHandlerFactory>map(p -> p).orElse(io));
        RunPhases run = new RunPhases(spec, transport, control, group, pacers, listener, engineCompilers);
        boolean ended = false;
        try {
            ProtocolPreflight.check(spec, address, group, transport);
            listener.started();
            LoadResult r = run.execute();
            ended = true;
            return r;
        } finally {
            if (!ended) {
                // Stopped early (interrupted: an agent's run stopped in its first second; or failed):
                // close the connections on their loops, queued behind any start still running there.
                // A quiet period of 0 ends a loop right after its last tasks, which would leave the
                // sockets those tasks opened open, with no loop to close them.
                run.workers.forEach(w -> w.loop.execute(w::close));
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            // Only now can no write still hold a duplicate of an HTTP/2 body.
            run.workers.forEach(w -> {
                if (w.h2Request != null) {
                    w.h2Request.release();
                }
            });
        }
    }

    /** Resolves the host and opens one connection, so that a wrong URL fails before the run. */
    private static InetSocketAddress preflight(LoadSpec spec) {
        Target t = spec.request().target();
        InetAddress ip;
        try {
            ip = InetAddress.getByName(t.host());
        } catch (UnknownHostException e) {
            throw LoadException.usage("cannot resolve host '" + t.host() + "': check the URL");
        }
        InetSocketAddress address = new InetSocketAddress(ip, t.port());
        try (Socket s = new Socket()) {
            s.connect(address, (int) Math.min(Integer.MAX_VALUE, spec.connectTimeout().toMillis()));
        } catch (ConnectException e) {
            throw LoadException.failed("connection refused by " + t.hostHeader()
                    + ": is the server running on that port?", e);
        } catch (SocketTimeoutException e) {
            throw LoadException.failed("no answer from " + t.hostHeader() + " within "
                    + spec.connectTimeout().toMillis() + "ms: check the host and port", e);
        } catch (IOException e) {
            throw LoadException.failed("cannot connect to " + t.hostHeader() + ": " + e.getMessage(), e);
        }
        return address;
    }

    /** Runs a task on an event loop and waits for its answer. */
    static <T> T onLoop(EventLoop loop, java.util.concurrent.Callable<T> task) {
        Future<T> f = loop.submit(task);
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LoadException.failed("interrupted while waiting for the event loop", e);
        } catch (ExecutionException e) {
            throw LoadException.failed("event loop task failed: " + e.getCause(), e.getCause());
        }
    }
}
