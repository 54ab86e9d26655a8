package io.loadlab.subject;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * How the contract check talks to a subject in one protocol variant: the JDK's HTTP client over
 * HTTP/1.1, TLS and h2 over TLS ({@link JdkContractClient}), Netty's HTTP/2 codec for h2c, which the
 * JDK's client cannot start with prior knowledge ({@link H2cContractClient}). Each answer says which
 * protocol carried it, so the check sees that an h2 variant really answered over HTTP/2.
 */
sealed interface ContractClient extends AutoCloseable permits JdkContractClient, H2cContractClient {

    /**
     * One answer.
     *
     * @param status      the status code
     * @param contentType the Content-Type header, empty if none
     * @param body        the body
     * @param protocol    {@code http/1.1} or {@code h2}
     */
    record Reply(int status, String contentType, byte[] body, String protocol) {}

    Reply get(String path) throws IOException, InterruptedException;

    Reply put(String path, byte[] body) throws IOException, InterruptedException;

    /** A GET that answers later, while others go on. */
    CompletableFuture<Reply> getAsync(String path);

    @Override
    void close();
}
