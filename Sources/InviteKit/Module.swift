// InviteKit module. Files are added per layer folder.
