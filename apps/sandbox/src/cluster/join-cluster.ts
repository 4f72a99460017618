import { type DatabaseSettings, type Db, dialectOf } from "../db/database";
import { PostgresBus } from "../db/postgres-bus";
import { type LiveBus, LocalBus } from "../events/live-bus";
import { DEFAULT_HEARTBEAT, type HeartbeatTiming, ServiceInstance } from "./service-instance";

export interface ClusterMembership {
  instance: ServiceInstance;
  bus: LiveBus;
  /** Stops the heartbeat (removing this instance's row) and the bus. */
  leave(): Promise<void>;
}

/**
 * Makes this process one of the instances on its database: on PostgreSQL, others may share it
 * (heartbeat row, LISTEN/NOTIFY); on SQLite it is alone (the row still marks what it owns).
 */
export async function joinCluster(
  settings: DatabaseSettings,
  db: Db,
  log: (line: string) => void,
  timing: HeartbeatTiming = DEFAULT_HEARTBEAT,
): Promise<ClusterMembership> {
  const shared = dialectOf(settings) === "postgres";
  const instance = new ServiceInstance(db, shared, timing, log);
  await instance.start();
  const bus =
    shared && settings.databaseUrl
      ? await PostgresBus.open(db, settings.databaseUrl, instance.id, log)
      : new LocalBus();
  return {
    instance,
    bus,
    async leave() {
      await bus.close();
      await instance.stop();
    },
  };
}
