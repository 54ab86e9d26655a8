package io.loadlab.kernel;

import io.github.spencerpark.jupyter.channels.StdinChannel;
import io.github.spencerpark.jupyter.messages.HMACGenerator;
import io.github.spencerpark.jupyter.messages.Message;
import io.github.spencerpark.jupyter.messages.MessageContext;
import io.github.spencerpark.jupyter.messages.reply.InputReply;
import io.github.spencerpark.jupyter.messages.request.InputRequest;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;
import zmq.ZError;

/**
 * The stdin channel, on which a cell that reads input gets the user's {@code input_reply}. The base
 * {@code StdinChannel.getInput} sends the {@code input_request} and then reads the reply with
 * {@code readMessage(MessageType)}, which calls {@link #readMessage()} virtually: so overriding that
 * one method puts every reply through {@link SignedFrames} (size, signature in constant time, no
 * replay, the verifier shared with the shell and control channels). A refused reply is dropped with
 * one line on the log and the cell goes on waiting for a genuine one, as it would for a slow user.
 * <p>
 * The socket is a ROUTER, which drops a message to a peer it has no connection from yet without a
 * word: a cell that asked for input just as its frontend's stdin connection was being made waited
 * for ever. So the socket is {@code ROUTER_MANDATORY} and {@link #getInput} sends the request once
 * the route is there, or fails the cell after {@link #ROUTE_WAIT_MS}.
 */
final class SignedStdinChannel extends StdinChannel {

    /** How long an input request waits for the frontend's stdin connection, in milliseconds. */
    static final long ROUTE_WAIT_MS = 10_000;
    /** How long between two tries to send it, in milliseconds: ZeroMQ tells of no new route. */
    private static final long ROUTE_RETRY_MS = 2;

    private final MessageVerifier verifier;
    private final Consumer<String> log;

    /**
     * @param verifier the connection's verifier, shared with its shell and control channels
     * @param signer   signs the input requests (the connection file's key)
     * @param log      where one line about each refused message goes
     */
    SignedStdinChannel(ZMQ.Context context, HMACGenerator signer, MessageVerifier verifier, Consumer<String> log) {
        super(context, signer);
        this.verifier = verifier;
        this.log = log;
        setMaxMsgSize(SignedFrames.MAX_MESSAGE_BYTES);
        setRouterMandatory(true);
    }

    /**
     * Asks the frontend for input, as the base channel does, but sends the request only once the
     * frontend's stdin connection is in place.
     *
     * @throws IllegalStateException when no frontend connects to the stdin channel within {@link #ROUTE_WAIT_MS}
     */
    @Override
    public synchronized String getInput(MessageContext context, String prompt, boolean isPasswordRequest) {
        Message<InputRequest> request = new Message<>(context, InputRequest.MESSAGE_TYPE,
                new InputRequest(prompt, isPasswordRequest));
        sendWhenRouted(request);
        Message<InputReply> reply = readMessage(InputReply.MESSAGE_TYPE);
        return reply.getContent().getValue() + System.lineSeparator();
    }

    /**
     * Sends the routing frame alone until the socket accepts it (a mandatory ROUTER refuses, having
     * sent nothing, a peer it has no route to), then the rest of the message after it.
     */
    private void sendWhenRouted(Message<InputRequest> request) {
        List<byte[]> identities = request.getIdentities();
        if (identities.isEmpty()) {
            throw new IllegalStateException("the request that asked for input named no frontend to ask");
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ROUTE_WAIT_MS);
        while (!routed(identities.get(0))) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(String.format(Locale.ROOT, "no frontend connected to the kernel's"
                        + " stdin channel within %d s, so the cell cannot ask for input: run it from a frontend that"
                        + " answers input requests (JupyterLab, Notebook, jupyter console)", ROUTE_WAIT_MS / 1000));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ROUTE_RETRY_MS));
        }
        sendMessage(new Message<>(identities.subList(1, identities.size()), request.getHeader(),
                request.getParentHeader(), request.getMetadata(), request.getContent(), request.getBlobs()));
    }

    /** Whether the routing frame went out (the message is then under way); false while there is no route. */
    private boolean routed(byte[] identity) {
        try {
            return sendMore(identity);
        } catch (ZMQException e) {
            if (e.getErrorCode() == ZError.EHOSTUNREACH) {
                return false;
            }
            throw e;
        }
    }

    /** The next genuine message: refused ones are dropped (with a line on the log) and the wait goes on. */
    @Override
    public synchronized Message<?> readMessage() {
        while (true) {
            Optional<Message<?>> message = SignedFrames.read(this, verifier,
                    what -> log.accept("loadlab kernel: the stdin channel dropped " + what));
            if (message.isPresent()) {
                return message.get();
            }
        }
    }
}
