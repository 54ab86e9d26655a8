package io.loadlab.agent;

/**
 * The one exception of the agents: an agent that cannot be reached or refuses, a secret file that
 * cannot be used, a listen address that cannot be bound, a run lost on an agent. The message is one
 * line that names the agent (its {@code HOST:PORT}) and says what to change.
 */
public class AgentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AgentException(String message) {
        super(message);
    }

    public AgentException(String message, Throwable cause) {
        super(message, cause);
    }
}
