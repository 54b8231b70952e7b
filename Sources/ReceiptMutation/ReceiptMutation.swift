/// The mutation catalogue (issue #3) lives in this module.
enum ReceiptMutationModule {}
