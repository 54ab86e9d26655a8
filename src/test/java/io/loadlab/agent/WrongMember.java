package io.loadlab.agent;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

/**
 * A Hazelcast member without the agents' secret that tries to join an agent: {@code WrongMember
 * LISTEN_IP PORT AGENT_IP:PORT SECRET}. Prints the size of the cluster it ended up in, then exits.
 */
public final class WrongMember {

    private WrongMember() {
    }

    public static void main(String[] args) {
        Config c = new Config();
        c.setClusterName(Secret.of(args[3]).clusterName());
        c.setProperty("hazelcast.logging.type", "none");
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.socket.bind.any", "false");
        c.getNetworkConfig().setPort(Integer.parseInt(args[1])).setPortAutoIncrement(false)
                .getInterfaces().setEnabled(true).addInterface(args[0]);
        c.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        c.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        c.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true).addMember(args[2]);
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(c);
        System.out.println("members " + hz.getCluster().getMembers().size());
        System.out.flush();
        hz.shutdown();
        System.exit(0);
    }
}
