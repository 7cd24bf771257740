print("storekeep")
