/// SyncStore: the versioned, synced object store.
public enum SyncStoreModule {}
