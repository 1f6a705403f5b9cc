print("invitekit")
