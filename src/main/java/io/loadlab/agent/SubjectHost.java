package io.loadlab.agent;

import java.nio.file.Path;

/**
 * The host the subjects run on, as {@code run --subject-host} names it: the address of an agent started
 * there with {@code --allow-subjects}, and the file holding the shared secret.
 *
 * @param address    the agent's {@code --listen} address; the subjects' address is its host
 * @param secretFile the shared secret ({@link Secret#read})
 */
public record SubjectHost(HostPort address, Path secretFile) {

    public SubjectHost {
        if (address == null) {
            throw new AgentException("subject host: name it as HOST:PORT, the address of 'loadlab agent --allow-subjects'");
        }
        if (secretFile == null) {
            throw new AgentException("subject host: a --secret-file is required, the file its agent was started with");
        }
    }
}
