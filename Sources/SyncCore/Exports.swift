// SyncCore is the façade: a program that imports it sees the public model whole, including the types of the modules
// below it (the endpoints, the configuration and its TOML live in SyncModel; the resilient decoding's JSONValue, Lossy
// and their kin in SyncDecoding; what a sync did, SyncSummary, and the queries and schema drift of the store in
// SyncPersistence; a run's progress, SyncProgress, in the engine, SyncRuntime).
@_exported public import SyncDecoding
@_exported public import SyncModel
@_exported public import SyncPersistence
@_exported public import SyncRuntime
