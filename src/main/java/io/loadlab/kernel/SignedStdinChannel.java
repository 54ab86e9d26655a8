package io.loadlab.kernel;

import io.github.spencerpark.jupyter.channels.StdinChannel;
import io.github.spencerpark.jupyter.messages.HMACGenerator;
import io.github.spencerpark.jupyter.messages.Message;
import java.util.Optional;
import java.util.function.Consumer;
import org.zeromq.ZMQ;

/**
 * The stdin channel, on which a cell that reads input gets the user's {@code input_reply}. The base
 * {@code StdinChannel.getInput} sends the {@code input_request} and then reads the reply with
 * {@code readMessage(MessageType)}, which calls {@link #readMessage()} virtually: so overriding that
 * one method puts every reply through {@link SignedFrames} (size, signature in constant time, no
 * replay, the verifier shared with the shell and control channels). A refused reply is dropped with
 * one line on the log and the cell goes on waiting for a genuine one, as it would for a slow user.
 */
final class SignedStdinChannel extends StdinChannel {

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
