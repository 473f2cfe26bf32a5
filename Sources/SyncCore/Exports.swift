// SyncCore is the façade: a program that imports it sees the public model whole, including the types of the modules
// below it (the resilient decoding's JSONValue, Lossy and their kin live in SyncDecoding).
@_exported public import SyncDecoding
