package io.loadlab.agent;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.ClientConnectionStrategyConfig;
import com.hazelcast.config.ClassFilter;
import com.hazelcast.config.Config;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * How Loadlab uses Hazelcast: each agent is an embedded member bound to its {@code --listen} address
 * alone (no multicast, no auto-detection, no other interface), forming a cluster of its own whose name
 * is derived from the secret; a coordinator is a Hazelcast client of each agent, which never listens.
 * Hazelcast refuses a member or client with another cluster name; since it sends the name in clear,
 * that keeps out strangers, not a sniffer: control rests on each session's {@link Handshake}.
 */
final class Cluster {

    /** Queue of an agent's orders. */
    static final String INBOX = "loadlab.inbox";
    /** Prefix of a session's reply queue. */
    static final String REPLIES = "loadlab.replies.";
    /** Seconds without a heartbeat after which either side drops the other. */
    static final int HEARTBEAT_TIMEOUT_S = 6;

    private Cluster() {
    }

    /**
     * Starts an agent's member on {@code listen} (an IP address, or a name that resolves to one).
     *
     * @throws AgentException when the address cannot be resolved or bound
     */
    static HazelcastInstance member(HostPort listen, Secret secret) {
        String ip = ip(listen);
        Config c = new Config();
        c.setClusterName(secret.clusterName());
        c.setInstanceName("loadlab-agent-" + listen.port());
        c.setProperty("hazelcast.logging.type", "jdk");
        c.setProperty("hazelcast.phone.home.enabled", "false");
        // Bind the listen address only, not the wildcard address Hazelcast binds by default.
        c.setProperty("hazelcast.socket.bind.any", "false");
        c.setProperty("hazelcast.client.max.no.heartbeat.seconds", String.valueOf(HEARTBEAT_TIMEOUT_S));
        c.setProperty("hazelcast.shutdownhook.policy", "TERMINATE");
        c.getSerializationConfig().setJavaSerializationFilterConfig(serializationFilter());
        NetworkConfig n = c.getNetworkConfig();
        n.setPort(listen.port()).setPortAutoIncrement(false).setPublicAddress(ip + ":" + listen.port());
        n.getInterfaces().setEnabled(true).addInterface(ip);
        JoinConfig j = n.getJoin();
        j.getMulticastConfig().setEnabled(false);
        j.getAutoDetectionConfig().setEnabled(false);
        j.getTcpIpConfig().setEnabled(true).addMember(ip + ":" + listen.port());
        try {
            return Hazelcast.newHazelcastInstance(c);
        } catch (RuntimeException e) {
            throw new AgentException("cannot listen on " + listen + ": " + rootMessage(e)
                    + " (is the address this host's, and the port free?)", e);
        }
    }

    /**
     * Connects a coordinator's client to one agent, without reconnecting once connected (a lost agent
     * stays lost for the run).
     *
     * @throws AgentException naming the agent when it cannot be reached or refuses the secret
     */
    static HazelcastInstance client(HostPort agent, Secret secret, Duration connectTimeout) {
        ClientConfig c = new ClientConfig();
        c.setClusterName(secret.clusterName());
        c.setInstanceName("loadlab-coordinator-" + agent.host() + "-" + agent.port() + "-" + System.nanoTime());
        c.setProperty("hazelcast.logging.type", "none");
        c.setProperty("hazelcast.client.heartbeat.timeout", String.valueOf(HEARTBEAT_TIMEOUT_S * 1000));
        c.setProperty("hazelcast.client.heartbeat.interval", "1000");
        c.setProperty("hazelcast.client.shuffle.member.list", "false");
        c.getSerializationConfig().setJavaSerializationFilterConfig(serializationFilter());
        c.getNetworkConfig().addAddress(agent.toString());
        c.getConnectionStrategyConfig().setReconnectMode(ClientConnectionStrategyConfig.ReconnectMode.OFF);
        c.getConnectionStrategyConfig().getConnectionRetryConfig()
                .setClusterConnectTimeoutMillis(connectTimeout.toMillis())
                .setInitialBackoffMillis(200).setMaxBackoffMillis(1000);
        try {
            return HazelcastClient.newHazelcastClient(c);
        } catch (IllegalStateException e) {
            throw new AgentException("agent " + agent + " cannot be reached or refused this coordinator within "
                    + connectTimeout.toMillis() + "ms: is 'loadlab agent --listen " + agent + "' running there, and"
                    + " do both sides use the same --secret-file?", e);
        }
    }

    /**
     * The classes Java deserialization may resolve on either side: {@code java.lang.String} and
     * Hazelcast's own ({@code com.hazelcast.}), nothing else, with Hazelcast's broader defaults (every
     * {@code java*} class and arrays) turned off. Orders and answers are JSON text, which Hazelcast
     * writes with its own string serializer, so this filter refuses only what a hostile peer holding
     * the secret could put into a queue to run a deserialization gadget; the taking side then fails to
     * read that one item ({@link Agent#serve} logs it and goes on).
     */
    static JavaSerializationFilterConfig serializationFilter() {
        return new JavaSerializationFilterConfig().setDefaultsDisabled(true)
                .setWhitelist(new ClassFilter().addClasses(String.class.getName()).addPrefixes("com.hazelcast."));
    }

    private static String ip(HostPort listen) {
        try {
            return InetAddress.getByName(listen.host()).getHostAddress();
        } catch (UnknownHostException e) {
            throw new AgentException("cannot resolve --listen host '" + listen.host() + "': give this host's IP address");
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
