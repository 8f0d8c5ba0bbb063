-- 0008: handover requests (docs/cluster.md, "Handover requests"). The node
-- the proxy sends a room's connections to may not hold the room's lease;
-- it marks the lease row with its node id (request_room), and the holder,
-- which looks for such rows (wanted_rooms), stops the room and releases it
-- so that the asking node can claim it. NULL: nobody asked. A claim sets
-- it back to NULL (the new holder starts unasked); a renewal keeps it; a
-- release deletes the row as before.
ALTER TABLE room_leases ADD COLUMN wanted_by TEXT;
